// Time as the delivery queue sees it: `now` for schedules and records, `sleep` for retry waits (cut
// short by a shutdown). Injected, so tests run a retry schedule of minutes without waiting.
import { abortableSleep } from "../../lib/abortable-sleep.js";

/** The clock of the delivery queue. */
export interface DeliveryClock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemDeliveryClock: DeliveryClock = Object.freeze({
  now: () => Date.now(),
  sleep: abortableSleep,
});
