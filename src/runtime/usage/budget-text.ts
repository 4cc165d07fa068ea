// One line about an agent's budget for `/status` and `pincer usage`: spend against each limit, the
// per-turn cap, what happens at the limit, and whether a limit is reached now.
import type { BudgetExceeded, BudgetLedger, BudgetSpend, ResolvedBudget } from "./budget.js";

function usd(value: number): string {
  return `$${value.toFixed(2)}`;
}

/** `Budget: $0.40 of $1.00 today · $3.20 of $20.00 this month · 8,000 tokens/turn · at the limit: block`. */
export function formatBudgetLine(params: {
  budget: ResolvedBudget;
  spend: BudgetSpend;
  exceeded?: BudgetExceeded;
}): string {
  const { budget, spend } = params;
  const parts: string[] = [];
  if (budget.daily) parts.push(`${usd(spend.dayUsd)} of ${usd(budget.daily.usd)} today`);
  if (budget.monthly) parts.push(`${usd(spend.monthUsd)} of ${usd(budget.monthly.usd)} this month`);
  if (budget.perTurnTokens)
    parts.push(`${budget.perTurnTokens.tokens.toLocaleString("en-US")} tokens/turn`);
  const action = budget.onExceed;
  parts.push(
    `at the limit: ${action.kind === "fallback" ? `fallback to ${action.model}` : action.kind}`,
  );
  const reached = params.exceeded ? ` · ${params.exceeded.limit} limit REACHED` : "";
  return `Budget: ${parts.join(" · ")}${reached}`;
}

/** The line for `budget` read from the ledger now. */
export async function budgetLine(ledger: BudgetLedger, budget: ResolvedBudget): Promise<string> {
  const spend = await ledger.spend(budget);
  const exceeded = await ledger.exceeded(budget);
  return formatBudgetLine({ budget, spend, ...(exceeded ? { exceeded } : {}) });
}
