// Reports over usage records: OpenClaw's `CostUsageSummary` (totals plus one row per day) for the
// `usage.cost` method, and grouped rows (by agent, session, model or day) for `pincer usage`.
import { calendarKeys } from "./calendar.js";
import { addRecord, emptyTotals, type UsageRecord, type UsageTotals } from "./usage-record.js";

/** OpenClaw's `usage.cost` result. */
export interface CostUsageSummary {
  updatedAt: number;
  days: number;
  daily: Array<UsageTotals & { date: string }>;
  totals: UsageTotals;
}

/** Totals and one row per calendar day of `timeZone` that has records, oldest first. */
export function summarizeCost(params: {
  records: readonly UsageRecord[];
  days: number;
  timeZone?: string;
  now: number;
}): CostUsageSummary {
  const keys = calendarKeys(params.timeZone);
  const byDay = new Map<string, UsageTotals>();
  const totals = emptyTotals();
  for (const record of params.records) {
    const day = keys.day(record.ts);
    let row = byDay.get(day);
    if (!row) {
      row = emptyTotals();
      byDay.set(day, row);
    }
    addRecord(row, record);
    addRecord(totals, record);
  }
  const daily = [...byDay]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, row]) => ({ date, ...row }));
  return { updatedAt: params.now, days: params.days, daily, totals };
}

/** How `pincer usage` groups its rows. */
export type UsageGrouping = "agent" | "session" | "model" | "day";

/** One row of a grouped report. */
export interface UsageRow extends UsageTotals {
  key: string;
  turns: number;
  blocked: number;
}

/** Rows grouped by `by`, most expensive first (by day: oldest first). */
export function groupUsage(params: {
  records: readonly UsageRecord[];
  by: UsageGrouping;
  timeZone?: string;
}): UsageRow[] {
  const keys = calendarKeys(params.timeZone);
  const keyOf = (record: UsageRecord): string => {
    switch (params.by) {
      case "agent":
        return record.agentId;
      case "session":
        return record.sessionKey;
      case "model":
        return record.provider && record.model ? `${record.provider}/${record.model}` : "(none)";
      case "day":
        return keys.day(record.ts);
      default: {
        const never: never = params.by;
        throw new Error(`unknown grouping ${String(never)}`);
      }
    }
  };
  const rows = new Map<string, UsageRow>();
  for (const record of params.records) {
    const key = keyOf(record);
    let row = rows.get(key);
    if (!row) {
      row = { key, turns: 0, blocked: 0, ...emptyTotals() };
      rows.set(key, row);
    }
    addRecord(row, record);
    row.turns += 1;
    if (record.status === "blocked") row.blocked += 1;
  }
  const list = [...rows.values()];
  return params.by === "day"
    ? list.sort((a, b) => a.key.localeCompare(b.key))
    : list.sort((a, b) => b.totalCost - a.totalCost || b.totalTokens - a.totalTokens);
}

/** `7d`, `24h`, `30m` or a bare number of days as milliseconds; undefined when malformed. */
export function parseSince(raw: string): number | undefined {
  const match = /^(\d+)\s*([dhm]?)$/i.exec(raw.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] || "d").toLowerCase();
  const ms = unit === "d" ? 86_400_000 : unit === "h" ? 3_600_000 : 60_000;
  return amount > 0 ? amount * ms : undefined;
}
