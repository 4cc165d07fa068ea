// What a channel message's inbound journal line says once its turn ended: how the run ended (ok,
// failed, aborted) and what became of its reply (sent, failed, waiting), or, for a message every
// target of which already has a recorded reply, what that record says.
import type { RunResult } from "../runtime/run/index.js";
import type { DeliveryReport } from "./delivery/deliver.js";
import type { DeliveryCoverage } from "./delivery/delivery-coverage.js";
import type { InboundSettlement } from "./inbound/inbound-journal.js";

/** A finished turn's fate: replied (or its reply failed and was recorded, or waits in the queue),
 *  run-failed when its run failed or timed out, dropped when aborted, or none while the gateway
 *  stops (an aborted run is answered again after the restart) or when the reply could not even be
 *  recorded (nothing was sent: answered again too). */
export function turnOutcome(
  status: RunResult["status"],
  report: DeliveryReport | undefined,
  paused: boolean,
): InboundSettlement | undefined {
  if (report?.unrecorded) return undefined;
  if (status === "ok") {
    if (report?.failed.length) return "delivery-failed";
    return report?.queued.length ? "delivery-queued" : "replied";
  }
  if (status === "aborted") return paused ? undefined : "dropped";
  return "run-failed";
}

/** The fate of a message every target of which already has a recorded reply. */
export function coveredOutcome(covered: DeliveryCoverage[]): InboundSettlement {
  const outcomes = new Set(covered.map((c) => c.outcome));
  if (outcomes.has("delivery-failed")) return "delivery-failed";
  return outcomes.has("delivery-queued") ? "delivery-queued" : "replied";
}
