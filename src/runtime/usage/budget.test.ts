// The budget ledger against a real usage log in a temp dir, with an injected clock: spend counts per
// calendar day and month of the agent's zone (a turn at 23:30 UTC is "tomorrow" in Madrid), the
// limits trip at the first cent past them, a new day starts at zero, what is on disk is counted once
// (also when an append races the first load), and `resolveAgentBudget` merges entry over defaults.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BudgetLedger, parseBudgetAction, resolveAgentBudget } from "./budget.js";
import { createUsageLogWriter, readUsage, usageDir } from "./usage-log.js";
import { emptyCost, type UsageRecord } from "./usage-record.js";

const dirs: string[] = [];
const writers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  // Appends still in flight would recreate a removed dir.
  for (const writer of writers.splice(0)) await writer.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "pincer-budget-"));
  dirs.push(dir);
  return dir;
}

function record(ts: number, usd: number, runId = `r${ts}`): UsageRecord {
  return {
    ts,
    agentId: "main",
    sessionKey: "agent:main:main",
    runId,
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { ...emptyCost(), input: usd, total: usd },
    missingCost: false,
    status: "ok",
  };
}

const MADRID = "Europe/Madrid";
const budget = resolveAgentBudget({
  agentId: "main",
  defaults: { budget: { daily: 1, monthly: 5 }, userTimezone: MADRID },
})!;

function ledgerAt(dir: string, clock: { t: number }) {
  const writer = createUsageLogWriter({ stateDir: dir });
  writers.push(writer);
  return { writer, ledger: new BudgetLedger({ stateDir: dir, writer, now: () => clock.t }) };
}

describe("BudgetLedger", () => {
  it("counts per day and month of the zone, trips at the limit, and starts a new day at zero", async () => {
    const dir = stateDir();
    const clock = { t: Date.parse("2026-12-01T10:00:00Z") };
    const { ledger } = ledgerAt(dir, clock);
    expect(await ledger.exceeded(budget)).toBeUndefined();
    ledger.record(record(clock.t, 0.6));
    expect(await ledger.exceeded(budget)).toBeUndefined();
    ledger.record(record(clock.t + 1, 0.4));
    expect(await ledger.exceeded(budget)).toMatchObject({
      limit: "daily",
      limitUsd: 1,
      key: "agents.defaults.budget.daily",
      timeZone: MADRID,
    });
    // 23:30 UTC on Dec 1 is 00:30 on Dec 2 in Madrid: a new day there.
    clock.t = Date.parse("2026-12-01T23:30:00Z");
    expect(await ledger.spend(budget)).toMatchObject({ day: "2026-12-02", dayUsd: 0 });
    expect((await ledger.spend(budget)).monthUsd).toBeCloseTo(1, 9);
    expect(await ledger.exceeded(budget)).toBeUndefined();
  });

  it("a fresh ledger reads today's and this month's spend from the log, each record once", async () => {
    const dir = stateDir();
    const now = Date.parse("2026-12-15T12:00:00Z");
    const first = ledgerAt(dir, { t: now });
    first.ledger.record(record(Date.parse("2026-11-30T12:00:00Z"), 3)); // last month
    first.ledger.record(record(Date.parse("2026-12-03T12:00:00Z"), 2)); // this month
    first.ledger.record(record(now - 60_000, 0.5)); // today
    await first.writer.flush();
    // A torn last line (a crash mid-append) is skipped.
    appendFileSync(join(usageDir(dir, "main"), "2026-12-15.jsonl"), '{"ts":17');
    const second = ledgerAt(dir, { t: now });
    const spend = await second.ledger.spend(budget);
    expect(spend.dayUsd).toBeCloseTo(0.5, 9);
    expect(spend.monthUsd).toBeCloseTo(2.5, 9);
    // An append that lands while the first load reads is not counted twice.
    const third = ledgerAt(dir, { t: now });
    const racing = record(now, 0.25, "race");
    writeFileSync(join(usageDir(dir, "main"), "2026-12-15.jsonl"), `${JSON.stringify(racing)}\n`, {
      flag: "a",
    });
    const loading = third.ledger.spend(budget);
    third.ledger.record({ ...racing });
    await loading;
    expect((await third.ledger.spend(budget)).dayUsd).toBeCloseTo(0.75, 9);
  });

  it("exceeded checks daily before monthly and is silent without money limits", async () => {
    const dir = stateDir();
    const clock = { t: Date.parse("2026-12-10T08:00:00Z") };
    const { ledger } = ledgerAt(dir, clock);
    ledger.record(record(Date.parse("2026-12-02T08:00:00Z"), 5));
    const monthly = await ledger.exceeded(budget);
    expect(monthly).toMatchObject({ limit: "monthly", limitUsd: 5 });
    const tokensOnly = resolveAgentBudget({
      agentId: "main",
      defaults: { budget: { perTurnTokens: 9 } },
    })!;
    expect(await ledger.exceeded(tokensOnly)).toBeUndefined();
  });
});

describe("resolveAgentBudget", () => {
  it("takes each field from the entry over the defaults, naming its key", () => {
    const resolved = resolveAgentBudget({
      agentId: "family",
      entryPath: "agents.list[2]",
      entry: {
        budget: { daily: 2, onExceed: "fallback:openai/gpt-5-mini" },
        userTimezone: "Asia/Tokyo",
      },
      defaults: { budget: { daily: 10, monthly: 50 } },
    });
    expect(resolved).toEqual({
      agentId: "family",
      daily: { usd: 2, key: "agents.list[2].budget.daily" },
      monthly: { usd: 50, key: "agents.defaults.budget.monthly" },
      onExceed: { kind: "fallback", model: "openai/gpt-5-mini" },
      timeZone: "Asia/Tokyo",
    });
  });

  it("is undefined without limits; an unknown zone falls back to the host's", () => {
    expect(resolveAgentBudget({ agentId: "a", defaults: { budget: { onExceed: "warn" } } })).toBe(
      undefined,
    );
    const odd = resolveAgentBudget({
      agentId: "a",
      defaults: { budget: { daily: 1 }, userTimezone: "Mars/Base" },
    });
    expect(odd?.timeZone).toBeUndefined();
    expect(parseBudgetAction("warn")).toEqual({ kind: "warn" });
    expect(parseBudgetAction(undefined)).toEqual({ kind: "block" });
  });
});

describe("readUsage", () => {
  it("returns the records in range across day files, oldest first; a missing dir is empty", async () => {
    const dir = stateDir();
    expect(await readUsage({ stateDir: dir, agentIds: ["main"], sinceMs: 0 })).toEqual([]);
    const logDir = usageDir(dir, "main");
    mkdirSync(logDir, { recursive: true });
    const a = record(Date.parse("2026-12-01T23:59:00Z"), 1);
    const b = record(Date.parse("2026-12-02T00:01:00Z"), 2);
    writeFileSync(join(logDir, "2026-12-02.jsonl"), `${JSON.stringify(b)}\nnot json\n`);
    writeFileSync(join(logDir, "2026-12-01.jsonl"), `${JSON.stringify(a)}\n`);
    writeFileSync(join(logDir, "notes.txt"), "ignored");
    const all = await readUsage({ stateDir: dir, agentIds: ["main"], sinceMs: 0 });
    expect(all.map((r) => r.runId)).toEqual([a.runId, b.runId]);
    const later = await readUsage({ stateDir: dir, agentIds: ["main"], sinceMs: b.ts });
    expect(later.map((r) => r.runId)).toEqual([b.runId]);
  });
});
