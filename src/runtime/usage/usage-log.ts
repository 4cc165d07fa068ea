// The per-agent usage log: one JSON line per turn in `<stateDir>/agents/<id>/usage/<UTC day>.jsonl`.
// Appends go through the thread pool in order; the lines queued meanwhile for one file go in one
// write (O_APPEND), so a crash can cut at most the last line being written, which readers skip. Each
// agent's current day file stays open (no open/close per turn, the cost that showed under load);
// a new day closes the previous one. No fsync per turn: a crash may drop the last moments' lines
// (the transcripts still hold each message's usage).
import { type FileHandle, mkdir, open, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../../lib/logger.js";
import { utcDay } from "./calendar.js";
import { parseRecord, type UsageRecord } from "./usage-record.js";

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const DAY_MS = 86_400_000;

/** The usage log directory of one agent. */
export function usageDir(stateDir: string, agentId: string): string {
  return join(stateDir, "agents", agentId, "usage");
}

/** Appends records in order; `flush()` waits for every append so far, `close()` also closes files. */
export interface UsageLogWriter {
  append(record: UsageRecord): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** The lines of one drain bound for one file, with the runs they record (for the warning). */
interface FileBatch {
  dir: string;
  text: string;
  runs: string[];
}

/** A writer for `stateDir`; a failed append is logged (the turn itself is never failed by it). */
export function createUsageLogWriter(params: {
  stateDir: string;
  logger?: Logger;
}): UsageLogWriter {
  const pending: UsageRecord[] = [];
  let draining: Promise<void> | undefined;
  /** Per usage dir: its open day file. */
  const files = new Map<string, { path: string; handle: FileHandle }>();
  const made = new Set<string>();

  const closeFile = async (dir: string) => {
    const file = files.get(dir);
    if (!file) return;
    files.delete(dir);
    await file.handle.close().catch((err: unknown) => {
      params.logger?.warn(`usage log: could not close ${file.path}: ${String(err)}`);
    });
  };
  const handleFor = async (dir: string, path: string): Promise<FileHandle> => {
    const file = files.get(dir);
    if (file?.path === path) return file.handle;
    await closeFile(dir);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      made.add(dir);
    }
    const handle = await open(path, "a", 0o600);
    files.set(dir, { path, handle });
    return handle;
  };
  const writeBatch = async (path: string, batch: FileBatch) => {
    try {
      await (await handleFor(batch.dir, path)).appendFile(batch.text);
    } catch (err) {
      // Reopened on the next append: a failed handle is not reused.
      await closeFile(batch.dir);
      params.logger?.warn(
        `usage log: could not record ${batch.runs.length === 1 ? "run" : "runs"} ${batch.runs.join(", ")} in ${path}: ${String(err)}`,
      );
    }
  };
  const drain = async () => {
    while (pending.length > 0) {
      const byPath = new Map<string, FileBatch>();
      for (const record of pending.splice(0)) {
        const dir = usageDir(params.stateDir, record.agentId);
        const path = join(dir, `${utcDay(record.ts)}.jsonl`);
        const batch = byPath.get(path) ?? { dir, text: "", runs: [] };
        batch.text += `${JSON.stringify(record)}\n`;
        batch.runs.push(record.runId);
        byPath.set(path, batch);
      }
      for (const [path, batch] of byPath) await writeBatch(path, batch);
    }
    draining = undefined;
  };
  const flush = () => draining ?? Promise.resolve();
  return {
    append(record) {
      pending.push(record);
      draining ??= drain();
    },
    flush,
    async close() {
      await flush();
      for (const dir of [...files.keys()]) await closeFile(dir);
    },
  };
}

/** Inputs of {@link readUsage}. */
export interface ReadUsageParams {
  stateDir: string;
  agentIds: readonly string[];
  /** Epoch ms, inclusive. */
  sinceMs: number;
  /** Epoch ms, inclusive; default: no upper bound. */
  untilMs?: number;
}

/** Every record of `agentIds` with `sinceMs <= ts <= untilMs`, oldest first. Missing dirs are empty. */
export async function readUsage(params: ReadUsageParams): Promise<UsageRecord[]> {
  const until = params.untilMs ?? Number.MAX_SAFE_INTEGER;
  // A file holds one UTC day; a day around the range's ends may hold records inside it.
  const first = utcDay(Math.max(0, params.sinceMs - DAY_MS));
  const last = until >= 8.64e15 - DAY_MS ? "9999-12-31" : utcDay(until + DAY_MS);
  const records: UsageRecord[] = [];
  for (const agentId of params.agentIds) {
    const dir = usageDir(params.stateDir, agentId);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    for (const name of names.sort()) {
      const day = DAY_FILE.exec(name)?.[1];
      if (!day || day < first || day > last) continue;
      const text = await readFile(join(dir, name), "utf8");
      for (const line of text.split("\n")) {
        const record = parseRecord(line);
        if (record && record.ts >= params.sinceMs && record.ts <= until) records.push(record);
      }
    }
  }
  return records.sort((a, b) => a.ts - b.ts);
}
