// Run lanes: one lane per session key (a session's runs never overlap) under a global concurrency cap
// and optional per-group caps (the gateway groups by agent: `agents.list[].maxConcurrent`), with FIFO
// order across sessions. Lanes exist only while they hold work, so the map never grows unbounded.
import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "../../sessions/index.js";

/** Default global cap on concurrent runs (`agents.defaults.maxConcurrent`, legacy default). */
export const DEFAULT_MAX_CONCURRENT = 4;

/** What a task receives besides its abort signal. */
export interface LaneTaskInfo {
  runId: string;
  sessionKey: string;
}

/** A unit of work run inside a session's lane; it must honour `signal`. */
export type LaneTask<T> = (signal: AbortSignal, info: LaneTaskInfo) => Promise<T>;

/** Returned by `enqueue`: the run id at once, the task's outcome later. */
export interface LaneRunHandle<T> {
  runId: string;
  sessionKey: string;
  /** Settles with the task's value or error; rejects with {@link LaneCancelledError} if cancelled first. */
  result: Promise<T>;
  /** Removes the run if still queued, or aborts its signal if running. */
  abort(reason?: string): void;
}

/** Lifecycle notifications, for logs and metrics. */
export type LaneEvent =
  | { type: "run_queued"; runId: string; sessionKey: string; at: number }
  | { type: "run_started"; runId: string; sessionKey: string; at: number; waitedMs: number }
  | {
      type: "run_finished";
      runId: string;
      sessionKey: string;
      at: number;
      durationMs: number;
      ok: boolean;
    }
  | { type: "run_cancelled"; runId: string; sessionKey: string; at: number; started: boolean };

/** Options of {@link createLaneScheduler}. */
export interface LaneSchedulerOptions {
  /** Global cap across lanes (floored, at least 1); default 4. */
  maxConcurrent?: number;
  clock?: Clock;
  newRunId?: () => string;
  onEvent?: (event: LaneEvent) => void;
  /** Per-group caps: a run starts only while its group runs fewer than `capOf(group)` (undefined =
   *  only the global cap). Read at every scheduling decision, so a new cap applies at once. */
  groups?: LaneGroups;
}

/** How sessions group under a shared cap (the gateway: the agent of the session key). */
export interface LaneGroups {
  /** The session's group; undefined = in no group (only the global cap applies). */
  groupOf(sessionKey: string): string | undefined;
  capOf(group: string): number | undefined;
}

/** Options of one `enqueue`. */
export interface EnqueueOptions {
  /** The run's id (the caller's, e.g. an RPC's idempotencyKey); absent: a fresh one. */
  runId?: string;
}

/** Per-session serialization plus a global cap; see {@link createLaneScheduler}. */
export interface LaneScheduler {
  /** Queues `task` in the session's lane; it starts when the lane is free and a global slot is open. */
  enqueue<T>(sessionKey: string, task: LaneTask<T>, options?: EnqueueOptions): LaneRunHandle<T>;
  /** True while the session has a running or queued run. */
  isBusy(sessionKey: string): boolean;
  /** Id of the session's running run, if any. */
  runningRunId(sessionKey: string): string | undefined;
  /** Rejects the session's queued runs and aborts its running one; returns how many were hit. */
  cancel(sessionKey: string, reason?: string): number;
  /** Changes the global cap and re-reads the group caps; raising one starts waiting runs at once. */
  setMaxConcurrent(value: number): void;
  /** Resolves when nothing is running or queued. */
  idle(): Promise<void>;
  readonly activeCount: number;
  readonly queuedCount: number;
  /** Lanes currently held in memory (only those with work). */
  readonly laneCount: number;
  readonly maxConcurrent: number;
}

/** Rejection of a run cancelled before it started, and the abort reason of a running one. */
export class LaneCancelledError extends Error {
  constructor(
    readonly sessionKey: string,
    readonly runId: string,
    reason = "cancelled",
  ) {
    super(`run ${runId} of ${sessionKey} ${reason}`);
    this.name = "LaneCancelledError";
  }
}

interface Job {
  runId: string;
  sessionKey: string;
  seq: number;
  task: LaneTask<unknown>;
  controller: AbortController;
  enqueuedAt: number;
  startedAt: number;
  state: "queued" | "running" | "done";
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Lane {
  key: string;
  /** The lane's group (`groups.groupOf`), if any. */
  group?: string;
  queue: Job[];
  running?: Job;
}

function normalizeCap(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_MAX_CONCURRENT;
  return Math.max(1, Math.floor(value));
}

/**
 * Creates a lane scheduler. Order across sessions is FIFO by enqueue time among runs whose lane is free;
 * a task's rejection only settles its own `result`.
 */
export function createLaneScheduler(options: LaneSchedulerOptions = {}): LaneScheduler {
  const clock = options.clock ?? systemClock;
  const newRunId = options.newRunId ?? randomUUID;
  const emit = options.onEvent ?? (() => {});
  let maxConcurrent = normalizeCap(options.maxConcurrent);
  const lanes = new Map<string, Lane>();
  // Lanes that are free and have queued work, ordered by the seq of their first queued job.
  const ready: Lane[] = [];
  let active = 0;
  let queued = 0;
  let seq = 0;
  let idleWaiters: Array<() => void> = [];
  const groups = options.groups;
  // Running jobs per group (only groups with a running job are kept).
  const groupActive = new Map<string, number>();
  const countGroup = (group: string | undefined, delta: number): void => {
    if (group === undefined) return;
    const next = (groupActive.get(group) ?? 0) + delta;
    if (next > 0) groupActive.set(group, next);
    else groupActive.delete(group);
  };
  const groupFull = (lane: Lane): boolean => {
    if (lane.group === undefined) return false;
    const cap = groups?.capOf(lane.group);
    return cap !== undefined && (groupActive.get(lane.group) ?? 0) >= Math.max(1, Math.floor(cap));
  };

  const insertReady = (lane: Lane): void => {
    const headSeq = lane.queue[0].seq;
    let lo = 0;
    let hi = ready.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ready[mid].queue[0].seq < headSeq) lo = mid + 1;
      else hi = mid;
    }
    ready.splice(lo, 0, lane);
  };

  const removeReady = (lane: Lane): void => {
    const index = ready.indexOf(lane);
    if (index >= 0) ready.splice(index, 1);
  };

  const dropLaneIfIdle = (lane: Lane): void => {
    if (!lane.running && lane.queue.length === 0 && lanes.get(lane.key) === lane) {
      lanes.delete(lane.key);
    }
  };

  const notifyIdle = (): void => {
    if (active > 0 || queued > 0 || idleWaiters.length === 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const wake of waiters) wake();
  };

  const finish = (lane: Lane, job: Job, ok: boolean): void => {
    job.state = "done";
    active -= 1;
    countGroup(lane.group, -1);
    lane.running = undefined;
    const at = clock.now();
    const durationMs = at - job.startedAt;
    emit({
      type: "run_finished",
      runId: job.runId,
      sessionKey: job.sessionKey,
      at,
      durationMs,
      ok,
    });
    if (lane.queue.length > 0) insertReady(lane);
    else dropLaneIfIdle(lane);
    pump();
  };

  const start = (lane: Lane, job: Job): void => {
    job.state = "running";
    lane.running = job;
    active += 1;
    countGroup(lane.group, 1);
    queued -= 1;
    const startedAt = clock.now();
    job.startedAt = startedAt;
    emit({
      type: "run_started",
      runId: job.runId,
      sessionKey: job.sessionKey,
      at: startedAt,
      waitedMs: startedAt - job.enqueuedAt,
    });
    let promise: Promise<unknown>;
    try {
      promise = Promise.resolve(
        job.task(job.controller.signal, { runId: job.runId, sessionKey: job.sessionKey }),
      );
    } catch (error) {
      // A task that throws synchronously is converted into a rejected run, like an async failure.
      promise = Promise.reject(error);
    }
    promise.then(
      (value) => {
        finish(lane, job, true);
        job.resolve(value);
      },
      (error: unknown) => {
        finish(lane, job, false);
        job.reject(error);
      },
    );
  };

  function pump(): void {
    // FIFO across lanes; a lane whose group is at its cap waits in place for the next pump.
    let index = 0;
    while (active < maxConcurrent && index < ready.length) {
      const lane = ready[index]!;
      if (groupFull(lane)) {
        index += 1;
        continue;
      }
      ready.splice(index, 1);
      const job = lane.queue.shift()!;
      start(lane, job);
    }
    notifyIdle();
  }

  const cancelQueued = (lane: Lane, job: Job, reason: string): void => {
    const index = lane.queue.indexOf(job);
    if (index < 0) return;
    const wasHead = index === 0;
    lane.queue.splice(index, 1);
    queued -= 1;
    job.state = "done";
    if (wasHead && !lane.running) {
      removeReady(lane);
      if (lane.queue.length > 0) insertReady(lane);
    }
    dropLaneIfIdle(lane);
    emit({
      type: "run_cancelled",
      runId: job.runId,
      sessionKey: job.sessionKey,
      at: clock.now(),
      started: false,
    });
    job.reject(new LaneCancelledError(job.sessionKey, job.runId, reason));
    notifyIdle();
  };

  const abortRunning = (job: Job, reason: string): void => {
    if (job.controller.signal.aborted) return;
    emit({
      type: "run_cancelled",
      runId: job.runId,
      sessionKey: job.sessionKey,
      at: clock.now(),
      started: true,
    });
    job.controller.abort(new LaneCancelledError(job.sessionKey, job.runId, reason));
  };

  const abortJob = (lane: Lane, job: Job, reason: string): void => {
    if (job.state === "queued") cancelQueued(lane, job, reason);
    else if (job.state === "running") abortRunning(job, reason);
  };

  return {
    enqueue<T>(sessionKey: string, task: LaneTask<T>, opts: EnqueueOptions = {}): LaneRunHandle<T> {
      let lane = lanes.get(sessionKey);
      if (!lane) {
        const group = groups?.groupOf(sessionKey);
        lane = { key: sessionKey, ...(group !== undefined ? { group } : {}), queue: [] };
        lanes.set(sessionKey, lane);
      }
      const owner = lane;
      let resolve!: (value: unknown) => void;
      let reject!: (error: unknown) => void;
      const result = new Promise<T>((res, rej) => {
        resolve = res as (value: unknown) => void;
        reject = rej;
      });
      const job: Job = {
        runId: opts.runId ?? newRunId(),
        sessionKey,
        seq: seq++,
        task: task as LaneTask<unknown>,
        controller: new AbortController(),
        enqueuedAt: clock.now(),
        startedAt: 0,
        state: "queued",
        resolve,
        reject,
      };
      owner.queue.push(job);
      queued += 1;
      emit({ type: "run_queued", runId: job.runId, sessionKey, at: job.enqueuedAt });
      if (!owner.running && owner.queue.length === 1) insertReady(owner);
      pump();
      return {
        runId: job.runId,
        sessionKey,
        result,
        abort: (reason = "aborted") => abortJob(owner, job, reason),
      };
    },
    isBusy: (sessionKey) => lanes.has(sessionKey),
    runningRunId: (sessionKey) => lanes.get(sessionKey)?.running?.runId,
    cancel(sessionKey, reason = "cancelled") {
      const lane = lanes.get(sessionKey);
      if (!lane) return 0;
      let count = 0;
      for (const job of [...lane.queue]) {
        cancelQueued(lane, job, reason);
        count += 1;
      }
      if (lane.running && !lane.running.controller.signal.aborted) {
        abortRunning(lane.running, reason);
        count += 1;
      }
      return count;
    },
    setMaxConcurrent(value) {
      maxConcurrent = normalizeCap(value);
      pump();
    },
    idle() {
      if (active === 0 && queued === 0) return Promise.resolve();
      return new Promise<void>((wake) => idleWaiters.push(wake));
    },
    get activeCount() {
      return active;
    },
    get queuedCount() {
      return queued;
    },
    get laneCount() {
      return lanes.size;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
  };
}
