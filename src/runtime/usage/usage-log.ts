// The per-agent usage log: one JSON line per turn in `<stateDir>/agents/<id>/usage/<UTC day>.jsonl`.
// Appends go through the thread pool in order, each line in one write (O_APPEND), so a crash can cut
// at most the line being written, which readers skip. No fsync per turn: a crash may drop the last
// moments' lines (the transcripts still hold each message's usage).
import { appendFile, mkdir, readdir, readFile } from "node:fs/promises";
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

/** Appends records in order; `flush()` waits for every append so far. */
export interface UsageLogWriter {
  append(record: UsageRecord): void;
  flush(): Promise<void>;
}

/** A writer for `stateDir`; a failed append is logged (the turn itself is never failed by it). */
export function createUsageLogWriter(params: {
  stateDir: string;
  logger?: Logger;
}): UsageLogWriter {
  let tail: Promise<void> = Promise.resolve();
  const made = new Set<string>();
  const write = async (record: UsageRecord) => {
    const dir = usageDir(params.stateDir, record.agentId);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      made.add(dir);
    }
    await appendFile(join(dir, `${utcDay(record.ts)}.jsonl`), `${JSON.stringify(record)}\n`, {
      mode: 0o600,
    });
  };
  return {
    append(record) {
      tail = tail.then(() =>
        write(record).catch((err: unknown) => {
          params.logger?.warn(
            `usage log: could not record run ${record.runId} of agent ${record.agentId}: ${String(err)}`,
          );
        }),
      );
    },
    flush: () => tail,
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
