// A job's life, pure: made from `cron.add` params (checked: schedule, target vs payload kind,
// delivery only for isolated jobs), changed by a `cron.update` patch, and advanced after a run
// (one-shot `at` jobs deleted after success unless `deleteAfterRun: false`, disabled after a
// failure with the error kept; recurring jobs back off after consecutive errors, as OpenClaw).
import type { CronAddParams, CronJobPatch } from "../protocol/gateway/cron.js";
import { SESSION_THINKING_LEVELS } from "../protocol/gateway/session-levels.js";
import { nextRunAtMs, scheduleProblem } from "./schedule.js";
import type { CronJob, CronRunOutcome } from "./types.js";
import { webhookUrlProblem } from "./webhook.js";

/** OpenClaw's retry backoff of a recurring job after 1, 2, 3, 4, 5+ consecutive errors. */
export const ERROR_BACKOFF_MS = [30_000, 60_000, 300_000, 900_000, 3_600_000] as const;

type Checked = { ok: true; job: CronJob } | { ok: false; error: string };

/** Why a job cannot be stored as it is, or undefined. */
export function jobProblem(job: CronJob): string | undefined {
  const scheduleIssue = scheduleProblem(job.schedule);
  if (scheduleIssue) return scheduleIssue;
  if (job.sessionTarget === "main" && job.payload.kind !== "systemEvent")
    return 'sessionTarget "main" needs payload.kind "systemEvent" (use --system-event)';
  if (job.sessionTarget === "isolated" && job.payload.kind !== "agentTurn")
    return 'sessionTarget "isolated" needs payload.kind "agentTurn" (use --message)';
  if (job.delivery?.mode === "webhook") {
    const urlProblem = webhookUrlProblem(job.delivery.to);
    if (urlProblem) return urlProblem;
    const extra = (["channel", "accountId"] as const).filter((key) => job.delivery?.[key]);
    if (extra.length > 0)
      return `webhook delivery takes no ${extra.join(" or ")} (only to: the URL)`;
  } else if (job.delivery && job.sessionTarget !== "isolated" && job.delivery.mode !== "none")
    return "announce delivery is only for isolated jobs (sessionTarget main replies where the session last talked; a webhook works for both)";
  if (job.payload.kind === "agentTurn" && job.payload.thinking !== undefined) {
    const levels: readonly string[] = SESSION_THINKING_LEVELS;
    if (!levels.includes(job.payload.thinking))
      return `payload.thinking "${job.payload.thinking}" is not one of ${levels.join(", ")}`;
  }
  return undefined;
}

function withNextRun(job: CronJob, nowMs: number): CronJob {
  const next = job.enabled
    ? nextRunAtMs({
        schedule: job.schedule,
        jobId: job.id,
        createdAtMs: job.createdAtMs,
        nowMs,
      })
    : undefined;
  const { nextRunAtMs: _old, ...state } = job.state;
  return { ...job, state: next === undefined ? state : { ...state, nextRunAtMs: next } };
}

/** A new job from `cron.add` params (wakeMode "now", enabled, one-shots deleted after success). */
export function createJob(params: { input: CronAddParams; id: string; nowMs: number }): Checked {
  const { input, id, nowMs } = params;
  const job: CronJob = {
    id,
    ...(input.agentId ? { agentId: input.agentId } : {}),
    ...(input.sessionKey ? { sessionKey: input.sessionKey } : {}),
    name: input.name.trim(),
    ...(input.description !== undefined ? { description: input.description } : {}),
    enabled: input.enabled ?? true,
    ...(input.schedule.kind === "at" ? { deleteAfterRun: input.deleteAfterRun ?? true } : {}),
    ...(input.schedule.kind !== "at" && input.deleteAfterRun !== undefined
      ? { deleteAfterRun: input.deleteAfterRun }
      : {}),
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
    schedule: input.schedule,
    sessionTarget: input.sessionTarget,
    wakeMode: input.wakeMode ?? "now",
    payload: input.payload,
    ...(input.delivery ? { delivery: input.delivery } : {}),
    state: {},
  };
  const problem = jobProblem(job);
  return problem ? { ok: false, error: problem } : { ok: true, job: withNextRun(job, nowMs) };
}

function without<T extends object>(value: T, keys: readonly string[]): T {
  const copy = { ...value } as Record<string, unknown>;
  for (const key of keys) delete copy[key];
  return copy as T;
}

/** The job after a `cron.update` patch (null clears agentId / sessionKey); checked like a new one. */
export function patchJob(params: { job: CronJob; patch: CronJobPatch; nowMs: number }): Checked {
  const { job, patch, nowMs } = params;
  let next: CronJob = { ...job, updatedAtMs: nowMs };
  const cleared: string[] = [];
  for (const key of ["agentId", "sessionKey"] as const) {
    if (patch[key] === null) cleared.push(key);
    else if (patch[key] !== undefined) next[key] = patch[key];
  }
  next = without(next, cleared);
  if (patch.name !== undefined) next.name = patch.name.trim();
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.enabled !== undefined) next.enabled = patch.enabled;
  if (patch.deleteAfterRun !== undefined) next.deleteAfterRun = patch.deleteAfterRun;
  if (patch.schedule !== undefined) next.schedule = patch.schedule;
  if (patch.sessionTarget !== undefined) next.sessionTarget = patch.sessionTarget;
  if (patch.wakeMode !== undefined) next.wakeMode = patch.wakeMode;
  if (patch.payload !== undefined) {
    const merged = {
      ...(job.payload.kind === patch.payload.kind ? job.payload : {}),
      ...patch.payload,
    };
    if (merged.kind === "systemEvent" && !("text" in merged && merged.text))
      return { ok: false, error: 'payload.kind "systemEvent" needs text' };
    if (merged.kind === "agentTurn" && !("message" in merged && merged.message))
      return { ok: false, error: 'payload.kind "agentTurn" needs message' };
    next.payload = merged as CronJob["payload"];
  }
  if (patch.delivery !== undefined) {
    // A new mode starts from nothing: an announce target is no webhook URL, nor the reverse.
    const modeChanged =
      patch.delivery.mode !== undefined && patch.delivery.mode !== job.delivery?.mode;
    const kept = modeChanged ? {} : job.delivery;
    const delivery = { mode: "announce" as const, ...kept, ...patch.delivery };
    next.delivery = delivery;
  }
  const problem = jobProblem(next);
  if (problem) return { ok: false, error: problem };
  const rescheduled =
    patch.schedule !== undefined || (patch.enabled === true && !job.enabled) || !next.enabled;
  return { ok: true, job: rescheduled ? withNextRun(next, nowMs) : next };
}

/** Whether the job should run at `nowMs` (enabled, a next run at or before now). */
export function isDue(job: CronJob, nowMs: number): boolean {
  const next = job.state.nextRunAtMs;
  return job.enabled && next !== undefined && next <= nowMs;
}

/** Timing of one finished run. */
export interface RunTiming {
  startedAtMs: number;
  endedAtMs: number;
}

/** The job after a run: its state updated, or undefined when a successful one-shot is deleted. */
export function finishRun(params: {
  job: CronJob;
  outcome: CronRunOutcome;
  timing: RunTiming;
}): CronJob | undefined {
  const { job, outcome, timing } = params;
  const failed = outcome.status === "error";
  const errors = failed ? (job.state.consecutiveErrors ?? 0) + 1 : 0;
  const {
    runningAtMs: _running,
    lastError: _lastError,
    lastDeliveryError: _lastDeliveryError,
    ...kept
  } = job.state;
  const state: CronJob["state"] = {
    ...kept,
    lastRunAtMs: timing.startedAtMs,
    lastRunStatus: outcome.status,
    lastStatus: outcome.status,
    lastDurationMs: Math.max(0, timing.endedAtMs - timing.startedAtMs),
    consecutiveErrors: errors,
    lastDelivered: outcome.deliveryStatus === "delivered",
    lastDeliveryStatus: outcome.deliveryStatus,
    ...(outcome.error ? { lastError: outcome.error } : {}),
    ...(outcome.deliveryError ? { lastDeliveryError: outcome.deliveryError } : {}),
  };
  if (job.schedule.kind === "at") {
    if (!failed && job.deleteAfterRun !== false) return undefined;
    const { nextRunAtMs: _next, ...rest } = state;
    return { ...job, enabled: false, state: rest };
  }
  const scheduled = nextRunAtMs({
    schedule: job.schedule,
    jobId: job.id,
    createdAtMs: job.createdAtMs,
    nowMs: timing.endedAtMs,
  });
  const backoff = failed
    ? timing.endedAtMs + ERROR_BACKOFF_MS[Math.min(errors, ERROR_BACKOFF_MS.length) - 1]!
    : undefined;
  const next =
    scheduled === undefined ? undefined : backoff ? Math.max(scheduled, backoff) : scheduled;
  const { nextRunAtMs: _next, ...rest } = state;
  return { ...job, state: next === undefined ? rest : { ...rest, nextRunAtMs: next } };
}

/** The job as the scheduler takes it over at start: a stale running mark dropped, a next run set. */
export function adoptJob(params: {
  job: CronJob;
  nowMs: number;
  /** `cron.skipMissedJobs`: a recurring job whose slot passed while down waits for its next one. */
  skipMissed: boolean;
}): CronJob {
  const { job, nowMs, skipMissed } = params;
  const { runningAtMs: _running, ...state } = job.state;
  const adopted = { ...job, state };
  if (!adopted.enabled) return adopted;
  const next = state.nextRunAtMs;
  const missed = next !== undefined && next <= nowMs;
  if (next === undefined || (missed && skipMissed && job.schedule.kind !== "at"))
    return withNextRun(adopted, nowMs);
  // A slot missed while the gateway was down stays due: it runs once, then the next one is computed
  // from the time it ran (never one run per missed slot).
  return adopted;
}
