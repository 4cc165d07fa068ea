// The job store: `<stateDir>/cron/jobs.json` (or `cron.store`), OpenClaw's `{version: 1, jobs}`.
// Written atomically (temp file, fsync, rename). A file that is not JSON or not that shape is an
// error value naming its path, and the scheduler then never writes over it; a single entry that is
// not a usable job is kept verbatim in the file (and reported) rather than dropped.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { jobProblem } from "./jobs.js";
import type { CronJob, CronStoreFile } from "./types.js";

/** Where a gateway's cron state lives. */
export interface CronPaths {
  jobsPath: string;
  /** `runs/` beside jobs.json: one `<jobId>.jsonl` per job. */
  runsDir: string;
}

/** The store paths: `cron.store` (`~` expanded) when set, else `<stateDir>/cron/jobs.json`. */
export function cronPaths(params: { stateDir: string; store?: string | undefined }): CronPaths {
  const raw = params.store?.trim();
  const jobsPath = raw
    ? resolve(raw === "~" || raw.startsWith("~/") ? join(homedir(), raw.slice(1)) : raw)
    : join(params.stateDir, "cron", "jobs.json");
  return { jobsPath, runsDir: join(dirname(jobsPath), "runs") };
}

/** An entry of jobs.json that is not a usable job: kept as it is and reported. */
export interface InvalidStoredJob {
  index: number;
  raw: unknown;
  problem: string;
}

/** What loading the store found. */
export type CronStoreLoad =
  | { ok: true; jobs: CronJob[]; invalid: InvalidStoredJob[]; existed: boolean }
  | { ok: false; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A stored entry as a job (OpenClaw's legacy `jobId` read as `id`), or why it is not one. */
function readJob(raw: unknown): CronJob | string {
  if (!isRecord(raw)) return "not an object";
  const id = typeof raw.id === "string" ? raw.id : typeof raw.jobId === "string" ? raw.jobId : "";
  if (!id || /[/\\]/.test(id)) return "no usable id";
  if (!isRecord(raw.schedule) || !["at", "every", "cron"].includes(String(raw.schedule.kind)))
    return "no schedule of kind at, every or cron";
  if (!isRecord(raw.payload) || !["systemEvent", "agentTurn"].includes(String(raw.payload.kind)))
    return "no payload of kind systemEvent or agentTurn";
  const { jobId: _legacy, ...rest } = raw;
  const job = {
    ...rest,
    id,
    name: typeof raw.name === "string" && raw.name ? raw.name : id,
    enabled: raw.enabled !== false,
    createdAtMs: typeof raw.createdAtMs === "number" ? raw.createdAtMs : 0,
    updatedAtMs: typeof raw.updatedAtMs === "number" ? raw.updatedAtMs : 0,
    sessionTarget: raw.sessionTarget === "main" ? "main" : "isolated",
    wakeMode: raw.wakeMode === "next-heartbeat" ? "next-heartbeat" : "now",
    state: isRecord(raw.state) ? raw.state : {},
  } as unknown as CronJob;
  return jobProblem(job) ?? job;
}

/** Where the jobs are kept: the jobs.json file, or (cluster.store) a PostgreSQL document. */
export interface CronStorage {
  /** Names the store in logs and errors (the file's path). */
  readonly where: string;
  /** Resolves once the store can be loaded (PostgreSQL: the document read); absent for files. */
  ready?: () => Promise<void>;
  load(): CronStoreLoad;
  save(params: { jobs: readonly CronJob[]; invalid: readonly InvalidStoredJob[] }): void;
  /** Resolves once every save reached the store (absent: saves are synchronous). */
  flush?: () => Promise<void>;
}

/** The jobs.json file as a {@link CronStorage}. */
export function fileCronStorage(jobsPath: string): CronStorage {
  return {
    where: jobsPath,
    load: () => loadCronStore(jobsPath),
    save: (params) => saveCronStore({ jobsPath, ...params }),
  };
}

/** Reads the store; a missing file is an empty store, a malformed one an error naming the path. */
export function loadCronStore(jobsPath: string): CronStoreLoad {
  let text: string;
  try {
    text = readFileSync(jobsPath, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { ok: true, jobs: [], invalid: [], existed: false };
    return { ok: false, error: `cron store ${jobsPath} is unreadable: ${(err as Error).message}` };
  }
  return parseCronStore(text, jobsPath);
}

/** Parses a store's text (`{version: 1, jobs}`); `where` names it in the errors. */
export function parseCronStore(text: string, where: string): CronStoreLoad {
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? { version: 1, jobs: [] } : JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      error: `cron store ${where} is not valid JSON (${(err as Error).message}); it is left as it is: fix or move it, then restart`,
    };
  }
  const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.jobs : undefined;
  if (!Array.isArray(list)) {
    return {
      ok: false,
      error: `cron store ${where} has no "jobs" list; it is left as it is: fix or move it, then restart`,
    };
  }
  const jobs: CronJob[] = [];
  const invalid: InvalidStoredJob[] = [];
  list.forEach((raw: unknown, index) => {
    const job = readJob(raw);
    if (typeof job === "string") invalid.push({ index, raw, problem: job });
    else jobs.push(job);
  });
  return { ok: true, jobs, invalid, existed: true };
}

/** The stored document: the jobs, then the unusable entries as they were read. */
export function cronStoreDocument(params: {
  jobs: readonly CronJob[];
  invalid: readonly InvalidStoredJob[];
}): CronStoreFile {
  return {
    version: 1,
    jobs: [...params.jobs, ...(params.invalid.map((entry) => entry.raw) as CronJob[])],
  };
}

/** Writes the store atomically: the jobs, then the unusable entries as they were read. */
export function saveCronStore(params: {
  jobsPath: string;
  jobs: readonly CronJob[];
  invalid: readonly InvalidStoredJob[];
}): void {
  writeFileAtomic(params.jobsPath, `${JSON.stringify(cronStoreDocument(params), null, 2)}\n`);
}
