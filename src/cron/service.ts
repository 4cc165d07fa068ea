// The cron scheduler: the jobs of the store in memory, one timer armed for the soonest due job (no
// polling: re-armed on every change and after every run), due jobs started up to
// `cron.maxConcurrentRuns`, each run's outcome folded into the job (jobs.ts), appended to its run log
// and emitted as a `cron` event. Clock, timers and the executor are injected; every method answers
// with a value (an unusable store makes writes fail naming its path, never overwrites it).
import { randomUUID } from "node:crypto";
import type {
  CronAddParams,
  CronJobPatch,
  CronListParams,
  CronRunsParams,
} from "../protocol/gateway/cron.js";
import { adoptJob, createJob, finishRun, isDue, patchJob } from "./jobs.js";
import { listJobs, listRuns } from "./queries.js";
import { appendRunLog, readAllRunLogs, readRunLog } from "./run-log.js";
import type { CronResult, CronServiceParams, CronTimers } from "./service-types.js";
import { type CronStorage, fileCronStorage, type InvalidStoredJob } from "./store.js";
import type { CronJob, CronRunOutcome } from "./types.js";

export type {
  CronResult,
  CronServiceParams,
  CronSettings,
  CronTimers,
} from "./service-types.js";

// setTimeout's longest delay; a later job re-arms when this one fires.
const MAX_TIMER_MS = 2_147_483_647;
const SUMMARY_CHARS = 2000;
const realTimers: CronTimers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Schedules, runs and records the cron jobs of one gateway. */
export class CronService {
  private readonly timers: CronTimers;
  private readonly jobs = new Map<string, CronJob>();
  private invalid: InvalidStoredJob[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private broken: string | undefined;
  private timer: { handle: unknown; at: number } | undefined;
  private closed = false;

  private readonly storage: CronStorage;

  constructor(private readonly params: CronServiceParams) {
    this.timers = params.timers ?? realTimers;
    this.storage = params.storage ?? fileCronStorage(params.paths.jobsPath);
  }

  /** Loads the store, takes the jobs over (missed slots due once), arms the timer (PostgreSQL: once read). */
  start(): void {
    const ready = this.storage.ready?.();
    if (!ready) {
      this.load();
      return;
    }
    this.broken = `cron store ${this.storage.where} is still loading`;
    ready.then(
      () => this.load(),
      (err: unknown) => this.load({ ok: false, error: `cron store unreadable: ${String(err)}` }),
    );
  }

  private load(loaded = this.storage.load()): void {
    this.broken = undefined;
    if (!loaded.ok) {
      this.broken = loaded.error;
      this.params.logger.error({ path: this.storage.where }, loaded.error);
      return;
    }
    const nowMs = this.params.now();
    const { skipMissed } = this.params.settings();
    for (const job of loaded.jobs) this.jobs.set(job.id, adoptJob({ job, nowMs, skipMissed }));
    this.invalid = loaded.invalid;
    for (const entry of loaded.invalid) {
      this.params.logger.warn(
        { path: this.storage.where, index: entry.index, problem: entry.problem },
        "cron: a stored job is not usable; kept in the file, not scheduled",
      );
    }
    this.reschedule();
  }

  /** Re-arms the timer for the soonest due job (or stops it when cron is disabled). */
  reschedule(): void {
    if (this.timer) this.timers.clear(this.timer.handle);
    this.timer = undefined;
    if (this.closed || this.broken || !this.params.settings().enabled) return;
    this.startDue();
    const nowMs = this.params.now();
    const full = this.freeSlots() <= 0;
    let soonest: number | undefined;
    for (const job of this.jobs.values()) {
      const next = job.state.nextRunAtMs;
      if (!job.enabled || next === undefined || this.running.has(job.id)) continue;
      // A due job waiting for a free slot starts when a run ends (that re-arms), not by a timer.
      if (full && next <= nowMs) continue;
      soonest = soonest === undefined ? next : Math.min(soonest, next);
    }
    if (soonest === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, soonest - nowMs));
    const handle = this.timers.set(() => {
      this.timer = undefined;
      this.reschedule();
    }, delay);
    this.timer = { handle, at: soonest };
  }

  /** `cron.status`. */
  status() {
    const jobs = [...this.jobs.values()];
    return {
      enabled: this.params.settings().enabled,
      storePath: this.storage.where,
      jobs: jobs.length,
      enabledJobs: jobs.filter((job) => job.enabled).length,
      running: this.running.size,
      nextWakeAtMs: this.timer?.at ?? null,
      ...(this.broken ? { error: this.broken } : {}),
      ...(this.invalid.length ? { invalidJobs: this.invalid.length } : {}),
    };
  }

  /** `cron.list`. */
  list(params: CronListParams) {
    return listJobs([...this.jobs.values()], params);
  }

  /** One job by id. */
  get(id: string): CronJob | undefined {
    return this.jobs.get(id);
  }

  /** `cron.add`. */
  add(input: CronAddParams): CronResult<CronJob> {
    const made = createJob({
      input,
      id: this.params.newId?.() ?? randomUUID(),
      nowMs: this.params.now(),
    });
    if (!made.ok) return { ok: false, code: "invalid", error: made.error };
    return this.commit(made.job, "added");
  }

  /** `cron.update`. */
  update(id: string, patch: CronJobPatch): CronResult<CronJob> {
    const job = this.jobs.get(id);
    if (!job) return notFound(id);
    const changed = patchJob({ job, patch, nowMs: this.params.now() });
    if (!changed.ok) return { ok: false, code: "invalid", error: changed.error };
    return this.commit(changed.job, "updated");
  }

  /** `cron.remove`: removed is false for an unknown id (as OpenClaw). */
  remove(id: string): CronResult<{ ok: true; removed: boolean }> {
    const job = this.jobs.get(id);
    if (!job) return { ok: true, value: { ok: true, removed: false } };
    const refused = this.writable();
    if (refused) return refused;
    this.jobs.delete(id);
    const saved = this.save();
    if (!saved.ok) {
      this.jobs.set(id, job);
      return saved;
    }
    this.params.emit({ jobId: id, action: "removed", ts: this.params.now() });
    this.reschedule();
    return { ok: true, value: { ok: true, removed: true } };
  }

  /** `cron.run`: starts the job now (`force`, the default) or only when due (`due`). */
  run(
    id: string,
    mode: "due" | "force" = "force",
  ): CronResult<{ ok: true; ran: boolean; enqueued?: boolean; runId?: string; reason?: string }> {
    const job = this.jobs.get(id);
    if (!job) return notFound(id);
    if (this.running.has(id))
      return { ok: true, value: { ok: true, ran: false, reason: "already-running" } };
    if (mode === "due" && !isDue(job, this.params.now()))
      return { ok: true, value: { ok: true, ran: false, reason: "not-due" } };
    const refused = this.writable();
    if (refused) return refused;
    const runId = this.launch(job);
    return { ok: true, value: { ok: true, ran: true, enqueued: true, runId } };
  }

  /** `cron.runs`: one job's history (`id`/`jobId`), or every job's with `scope: "all"`. */
  runs(params: CronRunsParams): CronResult<ReturnType<typeof listRuns>> {
    const id = params.id ?? params.jobId;
    if (params.scope !== "all" && !id)
      return { ok: false, code: "invalid", error: 'cron.runs needs "id" (or scope "all")' };
    const { runsDir } = this.params.paths;
    const entries =
      params.scope === "all" || !id ? readAllRunLogs(runsDir) : readRunLog(runsDir, id);
    return { ok: true, value: listRuns(entries, params) };
  }

  /** Stops the timer and waits for the runs in flight. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) this.timers.clear(this.timer.handle);
    this.timer = undefined;
    await Promise.allSettled([...this.running.values()]);
    const flushed = this.storage.flush?.().then(() => undefined, String);
    const error = await flushed;
    if (error)
      this.params.logger.error({ path: this.storage.where, error }, "cron store not saved");
  }

  private writable(): CronResult<never> | undefined {
    if (this.broken)
      return { ok: false, code: "unavailable", error: `cron store unusable: ${this.broken}` };
    return undefined;
  }

  private save(): CronResult<true> {
    try {
      this.storage.save({ jobs: [...this.jobs.values()], invalid: this.invalid });
      return { ok: true, value: true };
    } catch (err) {
      const error = `cannot write the cron store ${this.storage.where}: ${String(err)}`;
      this.params.logger.error({ path: this.storage.where, error: String(err) }, error);
      return { ok: false, code: "unavailable", error };
    }
  }

  private commit(job: CronJob, action: "added" | "updated"): CronResult<CronJob> {
    const refused = this.writable();
    if (refused) return refused;
    const previous = this.jobs.get(job.id);
    this.jobs.set(job.id, job);
    const saved = this.save();
    if (!saved.ok) {
      if (previous) this.jobs.set(job.id, previous);
      else this.jobs.delete(job.id);
      return saved;
    }
    this.params.emit({
      jobId: job.id,
      action,
      ts: this.params.now(),
      ...(job.state.nextRunAtMs !== undefined ? { nextRunAtMs: job.state.nextRunAtMs } : {}),
    });
    this.reschedule();
    return { ok: true, value: job };
  }

  private freeSlots(): number {
    return Math.max(1, this.params.settings().maxConcurrentRuns) - this.running.size;
  }

  private startDue(): void {
    const nowMs = this.params.now();
    const free = this.freeSlots();
    if (free <= 0) return;
    const due = [...this.jobs.values()]
      .filter((job) => isDue(job, nowMs) && !this.running.has(job.id))
      .sort((a, b) => (a.state.nextRunAtMs ?? 0) - (b.state.nextRunAtMs ?? 0));
    for (const job of due.slice(0, free)) this.launch(job);
  }

  private launch(job: CronJob): string {
    const runId = `cron-${this.params.newId?.() ?? randomUUID()}`;
    const startedAtMs = this.params.now();
    this.jobs.set(job.id, { ...job, state: { ...job.state, runningAtMs: startedAtMs } });
    this.save();
    this.params.emit({
      jobId: job.id,
      action: "started",
      ts: startedAtMs,
      runId,
      runAtMs: startedAtMs,
    });
    const run = this.params
      .execute(job, { runId })
      .catch(
        (err: unknown): CronRunOutcome => ({
          status: "error",
          error: `run failed: ${String(err)}`,
          deliveryStatus: "unknown",
        }),
      )
      .then((outcome) => this.finish({ jobId: job.id, runId, startedAtMs, outcome }))
      .catch((err: unknown) => {
        this.params.logger.error(
          { jobId: job.id, runId, error: String(err) },
          "cron: recording a run failed",
        );
      })
      .finally(() => {
        this.running.delete(job.id);
        this.reschedule();
      });
    this.running.set(job.id, run);
    return runId;
  }

  private finish(params: {
    jobId: string;
    runId: string;
    startedAtMs: number;
    outcome: CronRunOutcome;
  }): void {
    const { jobId, runId, startedAtMs, outcome } = params;
    const endedAtMs = this.params.now();
    const current = this.jobs.get(jobId);
    const summary = outcome.summary?.slice(0, SUMMARY_CHARS);
    let next: CronJob | undefined;
    if (current) {
      next = finishRun({ job: current, outcome, timing: { startedAtMs, endedAtMs } });
      if (next && !next.enabled) {
        const { nextRunAtMs: _next, ...state } = next.state;
        next = { ...next, state };
      }
      if (next) this.jobs.set(jobId, next);
      else this.jobs.delete(jobId);
      this.save();
    }
    const log = outcome.status === "error" ? this.params.logger.warn : this.params.logger.info;
    log(
      {
        jobId,
        runId,
        status: outcome.status,
        error: outcome.error,
        deliveryStatus: outcome.deliveryStatus,
      },
      "cron: job ran",
    );
    const fields = {
      ...(outcome.status ? { status: outcome.status } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(summary ? { summary } : {}),
      delivered: outcome.deliveryStatus === "delivered",
      deliveryStatus: outcome.deliveryStatus,
      ...(outcome.deliveryError ? { deliveryError: outcome.deliveryError } : {}),
      ...(outcome.sessionKey ? { sessionKey: outcome.sessionKey } : {}),
      durationMs: Math.max(0, endedAtMs - startedAtMs),
      ...(next?.state.nextRunAtMs !== undefined ? { nextRunAtMs: next.state.nextRunAtMs } : {}),
    };
    appendRunLog({
      runsDir: this.params.paths.runsDir,
      limits: this.params.settings().runLog,
      entry: {
        ts: endedAtMs,
        jobId,
        action: "finished",
        runId,
        ...(current ? { jobName: current.name } : {}),
        runAtMs: startedAtMs,
        ...fields,
        ...(outcome.sessionId ? { sessionId: outcome.sessionId } : {}),
        ...(outcome.model ? { model: outcome.model } : {}),
        ...(outcome.provider ? { provider: outcome.provider } : {}),
      },
    });
    this.params.emit({
      jobId,
      action: "finished",
      ts: endedAtMs,
      runId,
      runAtMs: startedAtMs,
      ...fields,
    });
    if (current && !next) this.params.emit({ jobId, action: "removed", ts: endedAtMs });
  }
}

function notFound(id: string): CronResult<never> {
  return { ok: false, code: "not-found", error: `unknown cron job "${id}" (see pincer cron list)` };
}
