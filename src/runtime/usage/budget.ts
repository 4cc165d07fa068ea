// Budgets: an agent's effective `budget` (its own fields over `agents.defaults.budget`), and the
// ledger that knows what each agent has spent today and this month in its `userTimezone`. The
// ledger loads an agent's month from the usage log on first use and then counts each turn it
// records, so a check is a few comparisons.
import { formatConfigPath } from "../../config/config-path.js";
import { findAgent, type ResolvedConfig } from "../../config/resolve.js";
import type { BudgetConfig } from "../../protocol/config/index.js";
import { calendarKeys, isValidTimeZone } from "./calendar.js";
import { readUsage, type UsageLogWriter } from "./usage-log.js";
import type { UsageRecord } from "./usage-record.js";

/** What a reached limit does. */
export type BudgetAction =
  | { kind: "block" }
  | { kind: "warn" }
  | { kind: "fallback"; model: string };

/** The limits in force for one agent; each field names the config key it came from. */
export interface ResolvedBudget {
  agentId: string;
  daily?: { usd: number; key: string };
  monthly?: { usd: number; key: string };
  perTurnTokens?: { tokens: number; key: string };
  onExceed: BudgetAction;
  /** The agent's `userTimezone` (entry, else defaults); undefined: the host's zone. */
  timeZone?: string;
}

/** Inputs of {@link resolveAgentBudget}: the agent's entry and `agents.defaults`, with their paths. */
export interface ResolveBudgetParams {
  agentId: string;
  entry?: { budget?: BudgetConfig; userTimezone?: string };
  /** Config path of the entry, e.g. `agents.list[1]`; absent for an agent without an entry. */
  entryPath?: string;
  defaults?: { budget?: BudgetConfig; userTimezone?: string };
}

/** Parses `onExceed` (the schema already checked its shape). */
export function parseBudgetAction(raw: string | undefined): BudgetAction {
  if (raw === undefined || raw === "block") return { kind: "block" };
  if (raw === "warn") return { kind: "warn" };
  return { kind: "fallback", model: raw.slice("fallback:".length) };
}

/** The agent's budget, or undefined when no limit applies to it. */
export function resolveAgentBudget(params: ResolveBudgetParams): ResolvedBudget | undefined {
  const own = params.entry?.budget;
  const base = params.defaults?.budget;
  const pick = <K extends keyof BudgetConfig>(key: K) => {
    if (own?.[key] !== undefined && params.entryPath)
      return { value: own[key], key: `${params.entryPath}.budget.${key}` };
    if (base?.[key] !== undefined)
      return { value: base[key], key: `agents.defaults.budget.${key}` };
    return undefined;
  };
  const daily = pick("daily");
  const monthly = pick("monthly");
  const perTurn = pick("perTurnTokens");
  if (!daily && !monthly && !perTurn) return undefined;
  const zone = params.entry?.userTimezone ?? params.defaults?.userTimezone;
  return {
    agentId: params.agentId,
    ...(daily ? { daily: { usd: daily.value as number, key: daily.key } } : {}),
    ...(monthly ? { monthly: { usd: monthly.value as number, key: monthly.key } } : {}),
    ...(perTurn ? { perTurnTokens: { tokens: perTurn.value as number, key: perTurn.key } } : {}),
    onExceed: parseBudgetAction(pick("onExceed")?.value as string | undefined),
    ...(zone && isValidTimeZone(zone) ? { timeZone: zone } : {}),
  };
}

/** The budget of `agentId` in the resolved config (its roster entry over `agents.defaults`). */
export function agentBudgetOf(cfg: ResolvedConfig, agentId: string): ResolvedBudget | undefined {
  const agent = findAgent(cfg, agentId);
  return resolveAgentBudget({
    agentId,
    ...(agent ? { entry: agent.entry } : {}),
    ...(agent && agent.index >= 0 ? { entryPath: formatConfigPath(agent.source) } : {}),
    defaults: cfg.defaults,
  });
}

/** A limit that is reached: which one, what was spent, and what to do. */
export interface BudgetExceeded {
  limit: "daily" | "monthly";
  spentUsd: number;
  limitUsd: number;
  key: string;
  action: BudgetAction;
  timeZone?: string;
}

/** Spending of one agent in the current day and month of its zone. */
export interface BudgetSpend {
  day: string;
  dayUsd: number;
  month: string;
  monthUsd: number;
}

interface Tally extends BudgetSpend {
  keys: ReturnType<typeof calendarKeys>;
  /** Runs read from the log while loading, so an append racing the read is not counted twice. */
  loaded: Set<string>;
}

/** Rolls `tally` forward to the period of `ts` (a newer day or month starts at zero). */
function roll(tally: Tally, ts: number): { day: boolean; month: boolean } {
  const day = tally.keys.day(ts);
  const month = day.slice(0, 7);
  if (day > tally.day) {
    tally.day = day;
    tally.dayUsd = 0;
  }
  if (month > tally.month) {
    tally.month = month;
    tally.monthUsd = 0;
  }
  return { day: day === tally.day, month: month === tally.month };
}

/** Inputs of {@link BudgetLedger}. */
export interface BudgetLedgerParams {
  stateDir: string;
  writer: UsageLogWriter;
  now: () => number;
}

/** Spend per agent and zone, loaded lazily from the usage log, kept current by {@link record}. */
export class BudgetLedger {
  private readonly tallies = new Map<string, Promise<Tally>>();
  /** The loaded tallies, readable synchronously (health). */
  private readonly settled = new Map<string, { agentId: string; tally: Tally }>();
  /** The last refused turn of each agent. */
  private readonly lastBlocked = new Map<string, { at: number; limit: string }>();

  constructor(private readonly params: BudgetLedgerParams) {}

  /** Waits until every record so far is in the usage log (gateway stop, tests). */
  flush(): Promise<void> {
    return this.params.writer.flush();
  }

  /** Flushes, then closes the usage log's open files (gateway stop). */
  close(): Promise<void> {
    return this.params.writer.close();
  }

  /** Spend known in memory per agent (only agents checked since start) and the last refusal. */
  snapshot(): Array<
    BudgetSpend & { agentId: string; lastBlocked?: { at: number; limit: string } }
  > {
    const now = this.params.now();
    return [...this.settled.values()].map(({ agentId, tally }) => {
      roll(tally, now);
      const blocked = this.lastBlocked.get(agentId);
      const { day, dayUsd, month, monthUsd } = tally;
      return {
        agentId,
        day,
        dayUsd,
        month,
        monthUsd,
        ...(blocked ? { lastBlocked: blocked } : {}),
      };
    });
  }

  /** What `budget.agentId` has spent in its current day and month. */
  async spend(budget: Pick<ResolvedBudget, "agentId" | "timeZone">): Promise<BudgetSpend> {
    const tally = await this.tally(budget.agentId, budget.timeZone);
    roll(tally, this.params.now());
    const { day, dayUsd, month, monthUsd } = tally;
    return { day, dayUsd, month, monthUsd };
  }

  /** The first limit of `budget` already reached (daily before monthly), or undefined. */
  async exceeded(budget: ResolvedBudget): Promise<BudgetExceeded | undefined> {
    if (!budget.daily && !budget.monthly) return undefined;
    const spend = await this.spend(budget);
    const base = {
      action: budget.onExceed,
      ...(budget.timeZone ? { timeZone: budget.timeZone } : {}),
    };
    if (budget.daily && spend.dayUsd >= budget.daily.usd)
      return {
        ...base,
        limit: "daily",
        spentUsd: spend.dayUsd,
        limitUsd: budget.daily.usd,
        key: budget.daily.key,
      };
    if (budget.monthly && spend.monthUsd >= budget.monthly.usd)
      return {
        ...base,
        limit: "monthly",
        spentUsd: spend.monthUsd,
        limitUsd: budget.monthly.usd,
        key: budget.monthly.key,
      };
    return undefined;
  }

  /** Logs one turn and counts its cost in every loaded tally of its agent. */
  record(record: UsageRecord): void {
    this.params.writer.append(record);
    if (record.status === "blocked" || record.budget === "perTurnTokens")
      this.lastBlocked.set(record.agentId, { at: record.ts, limit: record.budget ?? "budget" });
    for (const [key, pending] of this.tallies) {
      if (!key.startsWith(`${record.agentId}\u0000`)) continue;
      void pending.then((tally) => {
        if (tally.loaded.delete(record.runId)) return;
        const current = roll(tally, record.ts);
        if (current.day) tally.dayUsd += record.cost.total;
        if (current.month) tally.monthUsd += record.cost.total;
      });
    }
  }

  private tally(agentId: string, timeZone: string | undefined): Promise<Tally> {
    const key = `${agentId}\u0000${timeZone ?? ""}`;
    let pending = this.tallies.get(key);
    if (!pending) {
      pending = this.load(agentId, timeZone);
      this.tallies.set(key, pending);
      // A failed read reaches the caller and is retried on the next check rather than cached.
      pending.then(
        (tally) => this.settled.set(key, { agentId, tally }),
        () => this.tallies.delete(key),
      );
    }
    return pending;
  }

  private async load(agentId: string, timeZone: string | undefined): Promise<Tally> {
    // Appends still in flight are part of what was spent.
    await this.params.writer.flush();
    const now = this.params.now();
    const keys = calendarKeys(timeZone);
    const tally: Tally = {
      keys,
      day: keys.day(now),
      dayUsd: 0,
      month: keys.month(now),
      monthUsd: 0,
      loaded: new Set(),
    };
    const records = await readUsage({
      stateDir: this.params.stateDir,
      agentIds: [agentId],
      sinceMs: now - 32 * 86_400_000,
    });
    for (const record of records) {
      // Only appends of the last moments can race this read; older runs need no guard.
      if (record.ts >= now - 60_000 && record.runId) tally.loaded.add(record.runId);
      const day = keys.day(record.ts);
      if (day === tally.day) tally.dayUsd += record.cost.total;
      if (day.slice(0, 7) === tally.month) tally.monthUsd += record.cost.total;
    }
    return tally;
  }
}
