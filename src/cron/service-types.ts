// The cron scheduler's parameter and result types (service.ts re-exports them).
import type { Logger } from "../lib/logger.js";
import type { RunLogLimits } from "./run-log.js";
import type { CronPaths, CronStorage } from "./store.js";
import type { CronEvent, CronJob, CronRunOutcome } from "./types.js";

/** Timer functions (the real ones by default; tests pass a manual clock). */
export interface CronTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** The `cron` config as the scheduler reads it (per decision, so a reload applies). */
export interface CronSettings {
  enabled: boolean;
  maxConcurrentRuns: number;
  skipMissed: boolean;
  runLog: RunLogLimits;
}

/** Inputs of {@link CronService}. */
export interface CronServiceParams {
  paths: CronPaths;
  /** Where the jobs are kept (default: the jobs.json file of `paths`; run logs stay on disk). */
  storage?: CronStorage;
  now: () => number;
  settings: () => CronSettings;
  /** Runs one job; resolves with its outcome (a failure is an outcome, not a rejection). */
  execute: (job: CronJob, run: { runId: string }) => Promise<CronRunOutcome>;
  emit: (event: CronEvent) => void;
  logger: Logger;
  timers?: CronTimers;
  newId?: () => string;
}

/** A method's answer: a value, or an error with its kind. */
export type CronResult<T> =
  | { ok: true; value: T }
  | { ok: false; code: "not-found" | "invalid" | "unavailable"; error: string };
