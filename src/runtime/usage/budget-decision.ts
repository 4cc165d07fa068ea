// The budget's verdict for a turn before it starts, from the ledger: block (the reply says so; no
// model call), warn (a notice under the reply) or fallback (another model). Pure decision, no pi-ai:
// the gateway takes it before publishing a turn to a worker, and start-up loads it before ready.
import type { BudgetExceeded, BudgetLedger, ResolvedBudget } from "./budget.js";

/** What the budget decided for one turn before it starts. */
export interface TurnBudget {
  /** The reply that replaces the turn (block). */
  blockedText?: string;
  /** A line shown under the reply (warn, fallback). */
  notice?: string;
  /** The model the turn runs on instead (fallback). */
  modelOverride?: string;
  /** The limit that was reached, when one was. */
  exceeded?: BudgetExceeded;
}

/** A turn's budget decided elsewhere (the gateway, for a turn that runs on a worker): the decision
 *  and the resolved limits (perTurnTokens is checked where the model calls happen). */
export interface PresetTurnBudget {
  turn: TurnBudget;
  budget?: ResolvedBudget;
}

function dollars(usd: number): string {
  return usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

/** One sentence naming the limit, the spend and the key. */
export function describeExceeded(agentId: string, exceeded: BudgetExceeded): string {
  const period = exceeded.limit === "daily" ? "day" : "month";
  const zone = exceeded.timeZone ?? "the gateway host's time zone";
  return (
    `agent "${agentId}" has spent ${dollars(exceeded.spentUsd)} of its ${dollars(exceeded.limitUsd)} ` +
    `${exceeded.limit} budget (${exceeded.key}); it resets when the ${period} ends (${zone})`
  );
}

/** The budget's decision for a turn about to start (`budget` undefined: nothing to decide). */
export async function decideTurnBudget(params: {
  ledger: BudgetLedger;
  budget: ResolvedBudget | undefined;
}): Promise<TurnBudget> {
  const { budget } = params;
  if (!budget) return {};
  const exceeded = await params.ledger.exceeded(budget);
  if (!exceeded) return {};
  const why = describeExceeded(budget.agentId, exceeded);
  const action = exceeded.action;
  switch (action.kind) {
    case "block":
      return {
        exceeded,
        blockedText: `Budget reached: ${why}. This message was not sent to the model.`,
      };
    case "warn":
      return { exceeded, notice: `Budget warning: ${why}.` };
    case "fallback":
      return {
        exceeded,
        modelOverride: action.model,
        notice: `Budget reached: ${why}; answered by ${action.model}.`,
      };
    default: {
      const never: never = action;
      throw new Error(`unknown budget action ${JSON.stringify(never)}`);
    }
  }
}
