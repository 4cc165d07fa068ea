// The usage log writer on a real temp dir: lines land in order in each agent's UTC-day file, a new
// day opens a new file (the old one closed), what was in a file before is kept, a failed append is
// logged naming the run and the writer recovers, and `close()` leaves no file open.
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEntryLogger, type LogEntry } from "../../lib/logger.js";
import { createUsageLogWriter, readUsage, usageDir } from "./usage-log.js";
import { emptyCost, type UsageRecord } from "./usage-record.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pincer-usage-log-"));
  dirs.push(dir);
  return dir;
}

const DAY1 = Date.UTC(2026, 11, 1, 23, 59);
const DAY2 = Date.UTC(2026, 11, 2, 0, 1);

function record(ts: number, runId: string, agentId = "main"): UsageRecord {
  return {
    ts,
    agentId,
    sessionKey: `agent:${agentId}:main`,
    runId,
    input: 1,
    output: 2,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 3,
    cost: emptyCost(),
    missingCost: false,
    status: "ok",
  };
}

function runIds(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as UsageRecord).runId);
}

/** The open file descriptors of this process that point under `dir`. */
async function openFilesUnder(dir: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir)) count++;
    } catch {
      // The fd readdir itself used is gone by now.
    }
  }
  return count;
}

describe("createUsageLogWriter", () => {
  it("appends in order per agent and UTC day, keeping what the file held", async () => {
    const dir = stateDir();
    mkdirSync(usageDir(dir, "main"), { recursive: true });
    const day1 = join(usageDir(dir, "main"), "2026-12-01.jsonl");
    writeFileSync(day1, `${JSON.stringify(record(DAY1 - 1000, "before"))}\n`);
    const writer = createUsageLogWriter({ stateDir: dir });
    for (let i = 0; i < 50; i++) writer.append(record(DAY1, `a${i}`));
    writer.append(record(DAY1, "ops1", "ops"));
    writer.append(record(DAY2, "b0"));
    writer.append(record(DAY2, "b1"));
    await writer.flush();
    expect(runIds(day1)).toEqual(["before", ...Array.from({ length: 50 }, (_, i) => `a${i}`)]);
    expect(runIds(join(usageDir(dir, "main"), "2026-12-02.jsonl"))).toEqual(["b0", "b1"]);
    expect(runIds(join(usageDir(dir, "ops"), "2026-12-01.jsonl"))).toEqual(["ops1"]);
    // Each agent keeps only its current day open.
    if (process.platform === "linux") expect(await openFilesUnder(dir)).toBe(2);
    // Appends after a flush go on in the same files.
    writer.append(record(DAY2, "b2"));
    await writer.close();
    expect(runIds(join(usageDir(dir, "main"), "2026-12-02.jsonl"))).toEqual(["b0", "b1", "b2"]);
    if (process.platform === "linux") expect(await openFilesUnder(dir)).toBe(0);
    const all = await readUsage({ stateDir: dir, agentIds: ["main", "ops"], sinceMs: 0 });
    expect(all).toHaveLength(55);
  });

  it("logs a failed append with its run, and records the next ones once it can", async () => {
    const dir = stateDir();
    const entries: LogEntry[] = [];
    const logger = createEntryLogger((entry) => entries.push(entry));
    // The agent's usage dir is a file: the append cannot open its day file.
    mkdirSync(join(dir, "agents", "main"), { recursive: true });
    writeFileSync(usageDir(dir, "main"), "not a dir");
    const writer = createUsageLogWriter({ stateDir: dir, logger });
    writer.append(record(DAY1, "lost"));
    await writer.flush();
    expect(entries.map((e) => `${e.level} ${e.msg}`).join("\n")).toMatch(
      /warn usage log: .*run lost/,
    );
    rmSync(usageDir(dir, "main"));
    mkdirSync(usageDir(dir, "main"));
    writer.append(record(DAY1, "kept"));
    await writer.close();
    expect(runIds(join(usageDir(dir, "main"), "2026-12-01.jsonl"))).toEqual(["kept"]);
  });
});
