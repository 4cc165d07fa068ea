// `pincer usage [--agent ID] [--since 7d] [--by agent|session|model|day] [--json]`: reads the usage
// log under the state dir (no gateway needed) and prints one row per group plus each budgeted
// agent's standing against its limits.
import type { ResolvedConfig } from "../../config/index.js";
import {
  agentBudgetOf,
  BudgetLedger,
  budgetLine,
  groupUsage,
  parseSince,
  readUsage,
  type UsageGrouping,
  type UsageLogWriter,
} from "../../runtime/usage/index.js";
import { selectAgent } from "../agent-select.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { usageOptions } from "./commands.js";

const GROUPINGS: readonly UsageGrouping[] = ["agent", "session", "model", "day"];

/** A writer for a read-only ledger: the CLI never appends. */
const NO_WRITES: UsageLogWriter = {
  append: () => {},
  flush: async () => {},
  close: async () => {},
};

function money(value: number): string {
  return value >= 0.01 || value === 0 ? `$${value.toFixed(2)}` : `$${value.toPrecision(2)}`;
}

/** Prints the usage report. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof usageOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const by = (opts.by ?? "agent") as UsageGrouping;
  if (!GROUPINGS.includes(by))
    throw new CliError(`--by must be one of ${GROUPINGS.join(", ")}, got "${opts.by}"`);
  const spanMs = parseSince(opts.since ?? "7d");
  if (spanMs === undefined)
    throw new CliError(
      `--since must look like 7d, 24h, 30m or a number of days, got "${opts.since}"`,
    );
  const cfg: ResolvedConfig = loaded.resolved;
  const agentIds = opts.agent
    ? [selectAgent(loaded, opts.agent).agentId]
    : cfg.agents.map((agent) => agent.id);
  const now = Date.now();
  const stateDir = loaded.paths.stateDir;
  const records = await readUsage({ stateDir, agentIds, sinceMs: now - spanMs, untilMs: now });
  const timeZone = cfg.defaults.userTimezone;
  const rows = groupUsage({ records, by, ...(timeZone ? { timeZone } : {}) });
  const ledger = new BudgetLedger({ stateDir, writer: NO_WRITES, now: () => now });
  const budgets: Array<{ agentId: string; line: string }> = [];
  for (const agentId of agentIds) {
    const budget = agentBudgetOf(cfg, agentId);
    if (budget) budgets.push({ agentId, line: await budgetLine(ledger, budget) });
  }
  if (opts.json) {
    printJson(ctx, { since: new Date(now - spanMs).toISOString(), by, rows, budgets });
    return 0;
  }
  const since = opts.since ?? "7d";
  if (rows.length === 0) printLine(ctx, `No turns recorded in the last ${since}.`);
  for (const row of rows) {
    const blocked = row.blocked ? `, ${row.blocked} blocked` : "";
    const unpriced = row.missingCostEntries ? ` (${row.missingCostEntries} unpriced)` : "";
    printLine(
      ctx,
      `${row.key}: ${row.turns} turns${blocked} · ${row.input} in / ${row.output} out · ` +
        `cache ${row.cacheRead} read / ${row.cacheWrite} write · ${money(row.totalCost)}${unpriced}`,
    );
  }
  for (const { agentId, line } of budgets) printLine(ctx, `${agentId}: ${line}`);
  return 0;
}
