// Where budgets meet the agent loop. Before the turn: a reached daily or monthly limit blocks it
// (the reply says so; no model call), warns (a notice under the reply) or moves it to the fallback
// model. Before each later model call of the turn: `perTurnTokens` ends the turn with a clear
// reply. A refused call is answered by a synthetic assistant message instead of the provider, so
// the loop ends as after any answer and the reply reaches the chat like one.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import {
  type AssistantMessage,
  createAssistantMessageEventStream,
  streamSimple,
} from "@mariozechner/pi-ai";
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

/** A stream that answers with `text` at once, as `model` (no request leaves the process). */
function syntheticAnswer(model: Parameters<StreamFn>[0], text: string) {
  const stream = createAssistantMessageEventStream();
  const message: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: Date.now(),
  };
  stream.push({ type: "done", reason: "stop", message });
  return stream;
}

/** Inputs of {@link gateModelCalls}. */
export interface GateParams {
  /** The transport the loop would use (pi-ai's streamSimple when absent). */
  inner?: StreamFn;
  turn: TurnBudget;
  budget: ResolvedBudget | undefined;
  /** Tokens (in + out) this turn has used so far. */
  turnTokens: () => number;
  /** Called once when a call is refused, with the limit's name. */
  onRefused: (limit: string) => void;
}

/** The transport with the budget checked before each call; undefined when nothing can refuse. */
export function gateModelCalls(params: GateParams): StreamFn | undefined {
  const { turn, budget } = params;
  const perTurn = budget?.perTurnTokens;
  if (!turn.blockedText && !perTurn) return params.inner;
  const inner: StreamFn = params.inner ?? streamSimple;
  return (model, context, options) => {
    if (turn.blockedText) {
      params.onRefused(turn.exceeded?.limit ?? "budget");
      return syntheticAnswer(model, turn.blockedText);
    }
    if (perTurn && params.turnTokens() >= perTurn.tokens) {
      params.onRefused("perTurnTokens");
      return syntheticAnswer(
        model,
        `Stopped: this turn used ${params.turnTokens()} tokens, its limit is ${perTurn.tokens} (${perTurn.key}).`,
      );
    }
    return inner(model, context, options);
  };
}
