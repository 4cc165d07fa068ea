// The host's side of the delivery queue: opened once per start, closed at stop, and what platforms
// say later about sent messages (`reportPlatformStatus`): a `failed` receipt dead-letters the part
// it names (found by its message id among the parts sent lately), or, for a message this process
// did not send, is still recorded in the failures log, emitted and shown as the account's lastError.
import type { DeliveryClock } from "./delivery/delivery-clock.js";
import { type DeliveryQueue, openDeliveryQueue } from "./delivery/delivery-queue.js";
import {
  appendDeliveryFailure,
  type DeliveryFailureRecord,
  failureRecord,
} from "./delivery/failure-log.js";
import { type RetryPolicy, resolveRetryPolicy } from "./delivery/send-retry.js";
import { createSentReceipts } from "./delivery/sent-receipts.js";
import type {
  ChannelAccountConfig,
  ChannelAccountRuntime,
  ChannelDeliveryUpdate,
  Logger,
  OutboundMessage,
} from "./types.js";

/** What the delivery side needs from the host. */
export interface HostDeliveriesParams {
  stateDir: string;
  log: Logger;
  emit: (event: string, payload: unknown) => void;
  clock: DeliveryClock;
  runtimeFor: (channel: string, accountId: string) => ChannelAccountRuntime | undefined;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  /** Gateway-level policy overrides under the config's `retry` (tests shorten the backoff). */
  retry?: Partial<RetryPolicy>;
  onSent: (channel: string, message: OutboundMessage) => void;
  onFailed: (record: DeliveryFailureRecord) => void;
}

/** The queue with the host's lifecycle around it (the queue's own calls, plus `open`). */
export interface HostDeliveries extends DeliveryQueue {
  /** Opens the queue (once per start); the parts a crash cut mid-send are reported by `reportInterrupted`. */
  open(): void;
  /** A platform's receipt for a sent message (`failed` becomes a dead letter). */
  reportPlatformStatus(channel: string, accountId: string, update: ChannelDeliveryUpdate): void;
}

const NOT_STARTED = "channel host is not started: delivery queue closed";

/** Creates the delivery side (nothing is opened before `open`). */
export function createHostDeliveries(params: HostDeliveriesParams): HostDeliveries {
  let queue: DeliveryQueue | undefined;
  let open = false;
  const receipts = createSentReceipts();
  /** A failed receipt for a message no part here sent: recorded and reported, not retryable. */
  const reportUnknownFailure = (
    channel: string,
    accountId: string,
    update: ChannelDeliveryUpdate,
  ) => {
    const record = failureRecord({
      ts: params.clock.now(),
      channel,
      message: { target: { accountId, peer: update.peer } },
      failure: {
        message: update.error?.message ?? "the platform reported the message failed",
        retryable: false,
        ...(update.error?.code ? { code: update.error.code } : {}),
      },
      attempts: 1,
    });
    try {
      appendDeliveryFailure(params.stateDir, record);
    } catch (err) {
      params.log.error({ error: String(err) }, "delivery failure not written to the failures log");
    }
    params.log.warn(
      { channel, accountId, messageId: update.messageId, error: record.error },
      "delivery failed after send",
    );
    params.emit("delivery.failed", { ...record, messageId: update.messageId });
    params.onFailed(record);
  };
  const current = (): DeliveryQueue => {
    if (!queue) throw new Error(NOT_STARTED);
    return queue;
  };
  return {
    open() {
      if (open) return;
      queue = openDeliveryQueue({
        stateDir: params.stateDir,
        clock: params.clock,
        log: params.log,
        emit: params.emit,
        runtimeFor: params.runtimeFor,
        policyFor: (channel, accountId) =>
          resolveRetryPolicy(params.accountConfig(channel, accountId).retry, params.retry),
        onSent: (channel, message, receipt, sent) => {
          receipts.remember(sent, receipt.messageId);
          params.onSent(channel, message);
        },
        onFailed: params.onFailed,
      });
      open = true;
    },
    deliver: (request) => current().deliver(request),
    covered: (key) => queue?.covered(key) ?? [],
    reportInterrupted: () => queue?.reportInterrupted(),
    resume: (channel, accountId) => queue?.resume(channel, accountId),
    entries: () => queue?.entries() ?? [],
    counts: (channel, accountId) =>
      queue?.counts(channel, accountId) ?? { queued: 0, failed: 0, uncertain: 0 },
    reportPlatformStatus(channel, accountId, update) {
      const fields = { channel, accountId, messageId: update.messageId, status: update.status };
      if (update.status !== "failed") {
        params.log.debug(fields, "delivery receipt");
        return;
      }
      if (!receipts.firstFailure(channel, accountId, update.messageId)) return;
      const sent = receipts.lookup(channel, accountId, update.messageId);
      const message = `${update.error?.message ?? "the platform could not deliver the message"} (after it was accepted)`;
      const failure = {
        message,
        retryable: true,
        ...(update.error?.code ? { code: update.error.code } : {}),
      };
      if (sent && queue && open) queue.failAfterSend(sent, failure);
      else reportUnknownFailure(channel, accountId, update);
    },
    failAfterSend: (sent, failure) => queue?.failAfterSend(sent, failure),
    retry: (selector) => current().retry(selector),
    drop: (selector) => current().drop(selector),
    async stop() {
      if (!open) return;
      open = false;
      // The stopped queue stays in place: a late delivery is refused and reported, not lost silently.
      await queue?.stop();
    },
  };
}
