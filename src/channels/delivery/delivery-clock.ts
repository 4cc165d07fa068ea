// Time as the delivery queue sees it: `now` for schedules and records, `sleep` for retry waits (cut
// short by a shutdown). Injected, so tests run a retry schedule of minutes without waiting.

/** The clock of the delivery queue. */
export interface DeliveryClock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (never rejects). */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemDeliveryClock: DeliveryClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
    }),
});
