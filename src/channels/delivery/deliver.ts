// Delivery of planned messages through one account: each message sent with retries; a failure that
// stays is appended to the failure log, emitted as `delivery.failed` and counted, never dropped
// silently. Messages go out in order; a failed one does not stop the rest.
import type { ChannelAccountRuntime, OutboundMessage, SendReceipt } from "../types.js";
import { appendDeliveryFailure, type DeliveryFailureRecord, failureRecord } from "./failure-log.js";
import { type RetryPolicy, sendWithRetry } from "./send-retry.js";

/** What delivery needs from the host. */
export interface DeliveryDeps {
  stateDir: string;
  now: () => number;
  /** Broadcasts a gateway event (`delivery.failed`). */
  emit: (event: string, payload: unknown) => void;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  /** Called after every successful send (status: lastOutboundAt). */
  onSent?: (channel: string, message: OutboundMessage, receipt: SendReceipt) => void;
  /** Called for every failure that stays (status: lastError). */
  onFailed?: (record: DeliveryFailureRecord) => void;
}

/** Inputs of {@link deliverMessages}. */
export interface DeliverParams {
  deps: DeliveryDeps;
  channel: string;
  runtime: Pick<ChannelAccountRuntime, "send">;
  messages: readonly OutboundMessage[];
  sessionKey?: string;
  runId?: string;
}

/** Receipts of the sent messages and records of the failed ones. */
export interface DeliveryReport {
  sent: SendReceipt[];
  failed: DeliveryFailureRecord[];
}

/** Sends `messages` in order. */
export async function deliverMessages(params: DeliverParams): Promise<DeliveryReport> {
  const { deps } = params;
  const report: DeliveryReport = { sent: [], failed: [] };
  for (const message of params.messages) {
    const { result, attempts } = await sendWithRetry({
      runtime: params.runtime,
      message,
      ...(deps.retry ? { policy: deps.retry } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
    });
    if (result.ok) {
      report.sent.push(result.receipt);
      deps.onSent?.(params.channel, message, result.receipt);
      continue;
    }
    const record = failureRecord({
      ts: deps.now(),
      channel: params.channel,
      message,
      failure: result.failure,
      attempts,
      ...(params.sessionKey ? { sessionKey: params.sessionKey } : {}),
      ...(params.runId ? { runId: params.runId } : {}),
    });
    appendDeliveryFailure(deps.stateDir, record);
    deps.emit("delivery.failed", record);
    deps.onFailed?.(record);
    report.failed.push(record);
  }
  return report;
}
