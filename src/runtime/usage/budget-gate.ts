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
import type { ResolvedBudget } from "./budget.js";
import type { TurnBudget } from "./budget-decision.js";

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
