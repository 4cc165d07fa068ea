// A virtual clock for the delivery queue's retry schedule: `now` is a number the test moves, and
// every `sleep` is recorded. Short sleeps pass at once (the time jumps ahead); sleeps longer than
// `holdAboveMs` are held until the test releases them or the queue aborts them (a shutdown), so a
// schedule of minutes runs in milliseconds and a test can stop the gateway in the middle of a wait.
import type { DeliveryClock } from "../../src/channels/delivery/delivery-clock.js";

/** The clock and its controls. */
export interface VirtualClock {
  clock: DeliveryClock;
  /** Every requested sleep, in ms, in order. */
  readonly sleeps: number[];
  /** Sleeps currently held (longer than `holdAboveMs`). */
  held(): number[];
  /** Lets every held sleep end, moving the time to its end. */
  releaseHeld(): void;
  /** Moves the time forward. */
  advance(ms: number): void;
  now(): number;
  /** Resolves once a sleep of `ms` (or, without `ms`, any held sleep) was requested. */
  waitForSleep(ms?: number): Promise<void>;
}

/** Creates a clock at `start` ms (default a fixed epoch, so nothing depends on the wall clock). */
export function createVirtualClock(
  options: { start?: number; holdAboveMs?: number } = {},
): VirtualClock {
  let t = options.start ?? 1_700_000_000_000;
  const holdAbove = options.holdAboveMs ?? Number.POSITIVE_INFINITY;
  const sleeps: number[] = [];
  const held = new Map<() => void, number>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const clock: DeliveryClock = {
    now: () => t,
    sleep: (ms, signal) => {
      sleeps.push(ms);
      notify();
      if (ms <= holdAbove) {
        t += ms;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          held.delete(done);
          signal.removeEventListener("abort", done);
          resolve();
        };
        held.set(done, ms);
        signal.addEventListener("abort", done, { once: true });
        notify();
      });
    },
  };
  return {
    clock,
    sleeps,
    held: () => [...held.values()],
    releaseHeld() {
      for (const [done, ms] of [...held]) {
        t += ms;
        done();
      }
    },
    advance(ms) {
      t += ms;
    },
    now: () => t,
    waitForSleep(ms) {
      const seen = () => (ms === undefined ? held.size > 0 : sleeps.includes(ms));
      if (seen()) return Promise.resolve();
      return new Promise((resolve) => {
        const listener = () => {
          if (!seen()) return;
          listeners.delete(listener);
          resolve();
        };
        listeners.add(listener);
      });
    },
  };
}
