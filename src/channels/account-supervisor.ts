// Keeps one channel account running: starts it, watches its runtime's `ended`, and when the start
// throws or the account fails later (its polling loop crashed, the platform answered 401 or garbage,
// the connection dropped) starts it again with exponential backoff and jitter, while every other
// account and the gateway carry on. The account's status says what failed, how many restarts were
// made and when the next one is due. A run that stayed up for a healthy period resets the backoff.
// Clock, timers and randomness are passed in (tests drive them).
import type { AccountStatusSnapshot } from "./account-status.js";
import type { ChannelAccountEnd, ChannelAccountRuntime, Logger } from "./types.js";
import { describeError } from "./update-guard.js";

/** Restart backoff: `initialMs` times `factor` per failure up to `maxMs`, ± `jitter` (a fraction). */
export interface RestartPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  jitter: number;
  /** A run that lasted this long before failing counts as healthy: the next delay is `initialMs`. */
  healthyAfterMs: number;
}

/** 1 s doubling to 5 min, ±20 %, reset after a minute of healthy running. */
export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialMs: 1_000,
  maxMs: 300_000,
  factor: 2,
  jitter: 0.2,
  healthyAfterMs: 60_000,
};

/** Timer functions; the real ones by default. */
export interface SupervisorTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: SupervisorTimers = {
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The delay before restart number `attempt + 1` (0-based), jittered by `random()` in [0, 1). */
export function restartDelayMs(
  policy: RestartPolicy,
  attempt: number,
  random: () => number,
): number {
  const base = Math.min(policy.maxMs, policy.initialMs * policy.factor ** attempt);
  const jittered = base * (1 + policy.jitter * (2 * random() - 1));
  return Math.max(0, Math.round(Math.min(policy.maxMs, jittered)));
}

/** The status fields the supervisor owns, merged into the account's status. */
export type SupervisedStatus = Pick<
  AccountStatusSnapshot,
  "running" | "connected" | "lastError" | "lastErrorAt" | "restarts" | "nextRestartAt"
>;

/** Inputs for {@link superviseAccount}. */
export interface AccountSupervisorParams {
  /** One run of the account (the adapter's `start` with a fresh context). */
  start: () => Promise<ChannelAccountRuntime>;
  /** The account's signal: once aborted (pause, stop) nothing is restarted. */
  signal: AbortSignal;
  /** Already tagged with the channel and account. */
  log: Logger;
  now: () => number;
  /** Receives the runtime that serves sends (undefined while there is none). */
  onRuntime: (runtime: ChannelAccountRuntime | undefined) => void;
  /** Merges supervision fields into the account's status. */
  report: (update: Partial<SupervisedStatus>) => void;
  policy?: Partial<RestartPolicy>;
  timers?: SupervisorTimers;
  random?: () => number;
}

/** A supervised account. */
export interface AccountSupervisor {
  /** The first start; resolves once it started or failed (a failure schedules a restart). */
  start(): Promise<void>;
  /** Cancels a pending restart and stops the live runtime; nothing is restarted afterwards. */
  stop(): Promise<void>;
}

/** Supervises one account (nothing starts before `start`). */
export function superviseAccount(params: AccountSupervisorParams): AccountSupervisor {
  const policy = { ...DEFAULT_RESTART_POLICY, ...params.policy };
  const timers = params.timers ?? REAL_TIMERS;
  const random = params.random ?? Math.random;
  let current: ChannelAccountRuntime | undefined;
  let stopped = false;
  let attempt = 0;
  let restarts = 0;
  let timer: unknown;
  let inflight: Promise<void> = Promise.resolve();
  const halted = () => stopped || params.signal.aborted;

  const cancelTimer = () => {
    if (timer === undefined) return;
    timers.clearTimeout(timer);
    timer = undefined;
    params.report({ nextRestartAt: undefined });
  };
  params.signal.addEventListener("abort", cancelTimer, { once: true });

  const stopRuntime = async (runtime: ChannelAccountRuntime): Promise<void> => {
    try {
      await runtime.stop();
    } catch (err) {
      params.log.error({ error: describeError(err) }, "channel account failed to stop");
    }
  };

  const fail = (error: string, startedAt: number, retryAfterMs?: number) => {
    if (halted()) return;
    if (params.now() - startedAt >= policy.healthyAfterMs) attempt = 0;
    const delay = Math.max(restartDelayMs(policy, attempt, random), retryAfterMs ?? 0);
    attempt += 1;
    const at = params.now();
    params.report({
      running: false,
      connected: false,
      lastError: error,
      lastErrorAt: at,
      nextRestartAt: at + delay,
    });
    params.log.error({ error, restarts, restartInMs: delay }, "channel account failed; restarting");
    timer = timers.setTimeout(() => {
      timer = undefined;
      restarts += 1;
      params.report({ restarts, nextRestartAt: undefined });
      inflight = run();
    }, delay);
  };

  const watch = (runtime: ChannelAccountRuntime, startedAt: number) => {
    const ended = (end: ChannelAccountEnd) => {
      if (runtime !== current || halted()) return; // stopped on request
      if (end.failed) fail(end.error, startedAt, end.retryAfterMs);
      else fail("the account stopped receiving on its own", startedAt);
    };
    runtime.ended?.then(ended, (err: unknown) =>
      ended({ failed: true, error: `ended with an error: ${describeError(err)}` }),
    );
  };

  /** One start; never rejects. A failed run's runtime is stopped only now, so it served sends. */
  const run = async (): Promise<void> => {
    try {
      if (halted()) return;
      const previous = current;
      if (previous) {
        current = undefined;
        params.onRuntime(undefined);
        await stopRuntime(previous);
        if (halted()) return;
      }
      const startedAt = params.now();
      let runtime: ChannelAccountRuntime;
      try {
        runtime = await params.start();
      } catch (err) {
        fail(`start failed: ${describeError(err)}`, startedAt);
        return;
      }
      if (stopped) {
        await stopRuntime(runtime);
        return;
      }
      current = runtime;
      params.onRuntime(runtime);
      params.report({ running: true });
      watch(runtime, startedAt);
    } catch (err) {
      // A bug in the callbacks above; logged so the account's silence has a reason.
      params.log.error({ error: describeError(err) }, "channel account supervisor failed");
    }
  };

  return {
    start() {
      inflight = run();
      return inflight;
    },
    async stop() {
      stopped = true;
      cancelTimer();
      params.signal.removeEventListener("abort", cancelTimer);
      await inflight;
      const runtime = current;
      current = undefined;
      params.onRuntime(undefined);
      if (runtime) await stopRuntime(runtime);
      params.report({ running: false });
    },
  };
}
