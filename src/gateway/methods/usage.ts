// `usage.cost` and `usage.status`: the usage log summed per day, and each agent's budget standing.

import { agentBudgetOf } from "../../runtime/usage/budget.js";
import { readUsage } from "../../runtime/usage/usage-log.js";
import { summarizeCost } from "../../runtime/usage/usage-summary.js";
import { type CallOf, defineMethod, ok } from "./method.js";
import type { MethodDeps } from "./method-deps.js";
import { invalid, knownAgentIds } from "./shared.js";

const DAY_MS = 86_400_000;
const RANGE_DAYS = { "7d": 7, "30d": 30, "90d": 90, "1y": 365 } as const;

/** Epoch ms of 00:00 of `date` (YYYY-MM-DD) in `timeZone`, found by correcting the UTC guess. */
function startOfDay(date: string, timeZone: string | undefined): number {
  const guess = Date.parse(`${date}T00:00:00Z`);
  if (!timeZone) return new Date(`${date}T00:00:00`).getTime();
  const local = new Date(guess).toLocaleString("sv-SE", { timeZone, hourCycle: "h23" });
  const offset = Date.parse(`${local.replace(" ", "T")}Z`) - guess;
  return guess - offset;
}

async function cost(
  call: CallOf<"usage.cost">,
  deps: Pick<MethodDeps, "config" | "stateDir" | "now" | "usage">,
) {
  const cfg = deps.config();
  const { params } = call;
  const agents = knownAgentIds(cfg);
  if (params.agentId && !agents.includes(params.agentId))
    return invalid(`unknown agent "${params.agentId}" (known: ${agents.join(", ")})`);
  const timeZone = cfg.defaults.userTimezone;
  const now = deps.now();
  let sinceMs: number;
  let untilMs = now;
  let days: number;
  if (params.startDate && params.endDate) {
    sinceMs = startOfDay(params.startDate, timeZone);
    untilMs = startOfDay(params.endDate, timeZone) + DAY_MS - 1;
    if (untilMs < sinceMs) return invalid("endDate is before startDate");
    days = Math.round((untilMs + 1 - sinceMs) / DAY_MS);
  } else if (params.range === "all") {
    sinceMs = 0;
    days = 0;
  } else {
    days = params.range ? RANGE_DAYS[params.range] : (params.days ?? 30);
    sinceMs = now - days * DAY_MS;
  }
  await deps.usage.flush();
  const records = await readUsage({
    stateDir: deps.stateDir,
    agentIds: params.agentId ? [params.agentId] : agents,
    sinceMs,
    untilMs,
  });
  return ok(summarizeCost({ records, days, ...(timeZone ? { timeZone } : {}), now }));
}

async function status(
  _call: CallOf<"usage.status">,
  deps: Pick<MethodDeps, "config" | "now" | "usage">,
) {
  const cfg = deps.config();
  const budgets = [];
  for (const agentId of knownAgentIds(cfg)) {
    const budget = agentBudgetOf(cfg, agentId);
    if (!budget) continue;
    const spend = await deps.usage.spend(budget);
    const exceeded = await deps.usage.exceeded(budget);
    const blocked = deps.usage.snapshot().find((row) => row.agentId === agentId)?.lastBlocked;
    const limit = (l: { usd: number; key: string } | undefined, spentUsd: number) =>
      l ? { usd: l.usd, spentUsd, key: l.key } : undefined;
    const daily = limit(budget.daily, spend.dayUsd);
    const monthly = limit(budget.monthly, spend.monthUsd);
    const action = budget.onExceed;
    budgets.push({
      agentId,
      ...(budget.timeZone ? { timeZone: budget.timeZone } : {}),
      day: spend.day,
      month: spend.month,
      ...(daily ? { daily } : {}),
      ...(monthly ? { monthly } : {}),
      ...(budget.perTurnTokens ? { perTurnTokens: budget.perTurnTokens } : {}),
      onExceed: action.kind === "fallback" ? `fallback:${action.model}` : action.kind,
      ...(exceeded ? { exceeded: exceeded.limit } : {}),
      ...(blocked ? { lastBlocked: blocked } : {}),
    });
  }
  return ok({ updatedAt: deps.now(), providers: [], budgets });
}

/** The usage method group. */
export const usageMethods = [
  defineMethod({
    name: "usage.cost",
    scope: "operator.read",
    uses: ["config", "stateDir", "now", "usage"],
    handler: cost,
  }),
  defineMethod({
    name: "usage.status",
    scope: "operator.read",
    uses: ["config", "now", "usage"],
    handler: status,
  }),
];
