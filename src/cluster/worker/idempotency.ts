// A worker's idempotency check: before running a turn it looks for the turn's id in the session's
// transcript (every run's prompt entry carries its `runId`, runtime/run/turn-recovery.ts). Absent:
// a fresh turn, run as the gateway would (reset policies and triggers apply). Present: an earlier
// delivery got that far before its worker died (or the gateway published it again after a
// reconnect), so the turn runs in "resume" mode: a final answer already there is republished
// without a model call, a partial turn continues from its last complete step, its prompt never
// appended twice.
import { locateRun, type RunRecovery } from "../../runtime/run/turn-recovery.js";
import type { TranscriptEntry } from "../../sessions/index.js";

/** Deliveries after which a turn is recorded as failed instead of tried again (a turn whose
 *  every worker dies must not block its partition for ever). */
export const MAX_DELIVERIES = 5;

/** How a delivered turn runs: fresh (`recovery` undefined) or recovered. */
export interface TurnPlan {
  recovery: RunRecovery | undefined;
  /** What the transcript held (logs and tests). */
  found: "absent" | "failed" | "finished" | "partial" | "stale" | "given";
}

/** Decides how a delivery of turn `runId` runs, from the session's transcript entries (undefined:
 *  the session does not exist yet) and the delivery count (1 = first delivery). */
export function planDelivery(params: {
  runId: string;
  entries: readonly TranscriptEntry[] | undefined;
  deliveries: number;
  /** The gateway's own recovery of a turn it journaled before a restart. */
  given?: RunRecovery;
}): TurnPlan {
  const { runId, entries, deliveries, given } = params;
  if (deliveries > MAX_DELIVERIES)
    return {
      recovery: {
        mode: "fail",
        reason: `turn delivered ${deliveries} times without finishing (its workers died or hung)`,
      },
      found: "given",
    };
  if (given) return { recovery: given, found: "given" };
  const progress = entries ? locateRun(entries, runId) : { state: "absent" as const };
  if (progress.state === "absent") return { recovery: undefined, found: "absent" };
  return { recovery: { mode: "resume" }, found: progress.state };
}
