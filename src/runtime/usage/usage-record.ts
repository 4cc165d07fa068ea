// One turn's tokens and cost as the usage log keeps it, and the sums every report is built from.
// Costs come from pi-ai's per-message figures (the model's cost table: pi-ai's catalog, or a
// custom provider's `models[].cost`); a turn whose model has no prices counts as "missing cost".

/** How a recorded turn ended: answered, failed, or refused by a budget before any model call. */
export type UsageStatus = "ok" | "error" | "blocked";

/** Dollars per token class, as pi-ai's `usage.cost` reports them. */
export interface CostBreakdown {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

/** One line of the usage log. */
export interface UsageRecord {
  /** Epoch ms when the turn ended. */
  ts: number;
  agentId: string;
  sessionKey: string;
  runId: string;
  provider?: string;
  model?: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: CostBreakdown;
  /** True when tokens were used but the model's cost table priced none of them. */
  missingCost: boolean;
  status: UsageStatus;
  /** For a blocked or warned turn: which limit (`daily`, `monthly`, `perTurnTokens`). */
  budget?: string;
}

/** OpenClaw's `CostUsageTotals`: tokens, dollars and the count of turns without prices. */
export interface UsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  totalCost: number;
  inputCost: number;
  outputCost: number;
  cacheReadCost: number;
  cacheWriteCost: number;
  missingCostEntries: number;
}

/** A zero {@link CostBreakdown}. */
export function emptyCost(): CostBreakdown {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
}

/** Zero totals. */
export function emptyTotals(): UsageTotals {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    totalCost: 0,
    inputCost: 0,
    outputCost: 0,
    cacheReadCost: 0,
    cacheWriteCost: 0,
    missingCostEntries: 0,
  };
}

/** Adds one record into `totals` (in place). */
export function addRecord(totals: UsageTotals, record: UsageRecord): void {
  totals.input += record.input;
  totals.output += record.output;
  totals.cacheRead += record.cacheRead;
  totals.cacheWrite += record.cacheWrite;
  totals.totalTokens += record.totalTokens;
  totals.totalCost += record.cost.total;
  totals.inputCost += record.cost.input;
  totals.outputCost += record.cost.output;
  totals.cacheReadCost += record.cost.cacheRead;
  totals.cacheWriteCost += record.cost.cacheWrite;
  if (record.missingCost) totals.missingCostEntries += 1;
}

function finite(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Adds one assistant message's `usage.cost` (pi-ai's shape; absent or odd fields count 0). */
export function addCost(target: CostBreakdown, cost: unknown): void {
  if (!cost || typeof cost !== "object") return;
  const c = cost as Record<string, unknown>;
  target.input += finite(c.input);
  target.output += finite(c.output);
  target.cacheRead += finite(c.cacheRead);
  target.cacheWrite += finite(c.cacheWrite);
  target.total += finite(c.total);
}

/** A log line read back, or undefined when it is not a usage record (a torn last line, say). */
export function parseRecord(line: string): UsageRecord | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    // A line cut by a crash mid-write: the log's only possible damage, skipped.
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const r = value as Partial<UsageRecord>;
  if (typeof r.ts !== "number" || typeof r.agentId !== "string") return undefined;
  if (typeof r.sessionKey !== "string" || !r.cost || typeof r.cost !== "object") return undefined;
  const cost = emptyCost();
  addCost(cost, r.cost);
  return {
    ts: r.ts,
    agentId: r.agentId,
    sessionKey: r.sessionKey,
    runId: typeof r.runId === "string" ? r.runId : "",
    ...(typeof r.provider === "string" ? { provider: r.provider } : {}),
    ...(typeof r.model === "string" ? { model: r.model } : {}),
    input: finite(r.input),
    output: finite(r.output),
    cacheRead: finite(r.cacheRead),
    cacheWrite: finite(r.cacheWrite),
    totalTokens: finite(r.totalTokens),
    cost,
    missingCost: r.missingCost === true,
    status: r.status === "error" || r.status === "blocked" ? r.status : "ok",
    ...(typeof r.budget === "string" ? { budget: r.budget } : {}),
  };
}
