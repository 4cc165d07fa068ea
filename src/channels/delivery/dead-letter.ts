// What a dead letter (a part that will not be sent again on its own) tells the world: one line in the
// failures log, the `delivery.failed` event (with `uncertain` when nobody knows whether it arrived), a
// log line and the account's status (through `onFailed`). Never silent, whatever the disk says.
import type { Logger, SendFailure } from "../types.js";
import { partId } from "./delivery-entries.js";
import type { PlannedDelivery } from "./delivery-records.js";
import { appendDeliveryFailure, type DeliveryFailureRecord, failureRecord } from "./failure-log.js";

/** The failure of a part a crash cut mid-send (intent recorded, no result). */
export const INTERRUPTED_FAILURE: Readonly<SendFailure> = Object.freeze({
  message: "the gateway stopped while this part was being sent: it may or may not have arrived",
  retryable: false,
  uncertain: true,
  code: "interrupted",
});

/** Where a dead letter is reported. */
export interface DeadLetterSinks {
  stateDir: string;
  log: Logger;
  emit: (event: string, payload: unknown) => void;
  onFailed?: (record: DeliveryFailureRecord) => void;
}

/** Inputs of {@link reportDeadLetter}. */
export interface DeadLetterParams {
  sinks: DeadLetterSinks;
  plan: PlannedDelivery;
  /** 0-based part index. */
  at: number;
  failure: SendFailure;
  attempts: number;
  ts: number;
}

/** Reports one dead letter everywhere; returns its record. */
export function reportDeadLetter(params: DeadLetterParams): DeliveryFailureRecord {
  const { sinks, plan, failure } = params;
  const record = failureRecord({
    ts: params.ts,
    id: partId(plan.id, params.at),
    channel: plan.channel,
    message: plan.parts[params.at]!,
    failure,
    attempts: params.attempts,
    ...(plan.sessionKey ? { sessionKey: plan.sessionKey } : {}),
    ...(plan.runId ? { runId: plan.runId } : {}),
  });
  try {
    appendDeliveryFailure(sinks.stateDir, record);
  } catch (err) {
    sinks.log.error(
      { id: record.id, error: String(err) },
      "delivery failure not written to the failures log",
    );
  }
  const uncertain = failure.uncertain === true;
  sinks.log.warn(
    {
      id: record.id,
      channel: plan.channel,
      accountId: plan.accountId,
      error: failure.message,
      uncertain,
    },
    uncertain ? "delivery outcome unknown" : "delivery failed",
  );
  sinks.emit("delivery.failed", record);
  sinks.onFailed?.(record);
  return record;
}
