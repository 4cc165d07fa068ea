// Timer functions the inbound queue uses for debounce windows; injected so tests stay deterministic.

/** setTimeout/clearTimeout pair (tests pass a manual one or use vitest fake timers). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real timers, looked up at call time so vitest fake timers apply. */
export const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
