// Run history: one JSON line per finished run in `cron/runs/<jobId>.jsonl`. An append is one
// write + fsync (a crash leaves at most a torn last line, which readers skip); past `maxBytes` the
// file is cut to its newest `keepLines` lines by an atomic rewrite (OpenClaw's `cron.runLog`
// limits: 2 MB, 2000 lines).
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { writeWholeSync } from "../lib/durable-io.js";
import type { CronRunLogEntry } from "./types.js";

/** Default size past which a run log is pruned. */
export const DEFAULT_RUN_LOG_MAX_BYTES = 2_000_000;
/** Default number of newest lines a pruned run log keeps. */
export const DEFAULT_RUN_LOG_KEEP_LINES = 2000;

/** Run-log limits (`cron.runLog`). */
export interface RunLogLimits {
  maxBytes: number;
  keepLines: number;
}

/** The run log of one job. */
export function runLogPath(runsDir: string, jobId: string): string {
  return join(runsDir, `${jobId}.jsonl`);
}

/** Appends one entry (fsynced), then prunes the file when it grew past the limit. */
export function appendRunLog(params: {
  runsDir: string;
  entry: CronRunLogEntry;
  limits: RunLogLimits;
}): void {
  const { runsDir, entry, limits } = params;
  mkdirSync(runsDir, { recursive: true, mode: 0o700 });
  const path = runLogPath(runsDir, entry.jobId);
  const fd = openSync(path, "a", 0o600);
  try {
    writeWholeSync(fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  if (statSync(path).size <= limits.maxBytes) return;
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  writeFileAtomic(path, `${lines.slice(-Math.max(1, limits.keepLines)).join("\n")}\n`);
}

function parseLines(text: string): CronRunLogEntry[] {
  const entries: CronRunLogEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line) as CronRunLogEntry;
      if (value && typeof value === "object" && typeof value.jobId === "string")
        entries.push(value);
    } catch {
      // A torn line (a crash mid-append) or a hand edit: skipped, the rest of the log still reads.
    }
  }
  return entries;
}

/** One job's entries, oldest first; none when it never ran. */
export function readRunLog(runsDir: string, jobId: string): CronRunLogEntry[] {
  try {
    return parseLines(readFileSync(runLogPath(runsDir, jobId), "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** Every job's entries (oldest first by time). */
export function readAllRunLogs(runsDir: string): CronRunLogEntry[] {
  let names: string[];
  try {
    names = readdirSync(runsDir).filter((name) => name.endsWith(".jsonl"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return names
    .flatMap((name) => readRunLog(runsDir, name.slice(0, -".jsonl".length)))
    .sort((a, b) => a.ts - b.ts);
}
