// Reports over records: per-day rows in the user's zone (OpenClaw's CostUsageSummary), groupings for
// `pincer usage`, and the `--since` spans.
import { describe, expect, it } from "vitest";
import { emptyCost, type UsageRecord } from "./usage-record.js";
import { groupUsage, parseSince, summarizeCost } from "./usage-summary.js";

function rec(fields: Partial<UsageRecord> & { ts: number; usd: number }): UsageRecord {
  return {
    agentId: "main",
    sessionKey: "agent:main:main",
    runId: String(fields.ts),
    input: 100,
    output: 10,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 110,
    missingCost: false,
    status: "ok",
    ...fields,
    cost: { ...emptyCost(), output: fields.usd, total: fields.usd },
  };
}

const records = [
  rec({ ts: Date.parse("2026-12-01T22:30:00Z"), usd: 1, provider: "openai", model: "gpt" }),
  rec({
    ts: Date.parse("2026-12-01T23:30:00Z"),
    usd: 2,
    agentId: "work",
    provider: "anthropic",
    model: "opus",
  }),
  rec({
    ts: Date.parse("2026-12-02T10:00:00Z"),
    usd: 0,
    status: "blocked",
    totalTokens: 0,
    input: 0,
    output: 0,
  }),
  rec({ ts: Date.parse("2026-12-02T11:00:00Z"), usd: 0, missingCost: true }),
];

describe("summarizeCost", () => {
  it("groups by calendar day of the zone and sums everything", () => {
    const summary = summarizeCost({ records, days: 7, timeZone: "Europe/Madrid", now: 5 });
    expect(summary.daily.map((d) => [d.date, d.totalCost])).toEqual([
      ["2026-12-01", 1],
      ["2026-12-02", 2],
    ]);
    expect(summary.totals).toMatchObject({
      totalCost: 3,
      outputCost: 3,
      input: 300,
      missingCostEntries: 1,
    });
    expect(summary).toMatchObject({ updatedAt: 5, days: 7 });
    const utc = summarizeCost({ records, days: 7, timeZone: "UTC", now: 5 });
    expect(utc.daily.map((d) => [d.date, d.totalCost])).toEqual([
      ["2026-12-01", 3],
      ["2026-12-02", 0],
    ]);
  });
});

describe("groupUsage", () => {
  it("rows by agent and model sort by cost; by day oldest first; counts blocked turns", () => {
    const byAgent = groupUsage({ records, by: "agent" });
    expect(byAgent.map((r) => [r.key, r.turns, r.blocked, r.totalCost])).toEqual([
      ["work", 1, 0, 2],
      ["main", 3, 1, 1],
    ]);
    expect(groupUsage({ records, by: "model" }).map((r) => r.key)).toEqual([
      "anthropic/opus",
      "openai/gpt",
      "(none)",
    ]);
    expect(groupUsage({ records, by: "day", timeZone: "UTC" }).map((r) => r.key)).toEqual([
      "2026-12-01",
      "2026-12-02",
    ]);
  });
});

describe("parseSince", () => {
  it.each([
    ["7d", 7 * 86_400_000],
    ["24h", 86_400_000],
    ["30m", 1_800_000],
    ["3", 3 * 86_400_000],
  ])("%s", (raw, ms) => expect(parseSince(raw)).toBe(ms));
  it.each(["", "0d", "7w", "-1d", "soon"])("rejects %j", (raw) =>
    expect(parseSince(raw)).toBeUndefined(),
  );
});
