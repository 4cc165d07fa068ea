// One turn's usage accounting: the budget's decision before it starts, its cost summed from each
// assistant message, the gated model transport, and at the end one usage-log record plus the
// session entry's token and cost fields. Without a ledger (embedded use, the bench) it only sums.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import {
  addCost,
  agentBudgetOf,
  type BudgetLedger,
  decideTurnBudget,
  emptyCost,
  gateModelCalls,
  type PresetTurnBudget,
  type TurnBudget,
  type UsageStatus,
} from "../usage/index.js";
import type { AgentRuntimeDeps } from "./run-agent.js";

/** The accounting of one running turn. */
export interface TurnUsage {
  readonly budget: TurnBudget;
  /** The transport the turn's loop uses (budget-gated when a limit can refuse a call). */
  readonly streamFn: StreamFn | undefined;
  /** Counts one finished assistant message. */
  add(message: AssistantMessage): void;
  /** Tokens (in + out + cache) so far. */
  tokens(): number;
  /** Dollars so far. */
  costUsd(): number;
  /** Records the finished turn (usage log, budget tallies); returns the session entry's fields. */
  finish(params: { status: "ok" | "error"; provider?: string; model?: string }): {
    cacheRead: number;
    cacheWrite: number;
    estimatedCostUsd: number;
  };
}

/** Inputs of {@link startTurnUsage}. */
export interface StartTurnUsageParams {
  deps: AgentRuntimeDeps & { usage?: BudgetLedger };
  agentId: string;
  sessionKey: string;
  runId: string;
  /** The session's cost before this turn (`estimatedCostUsd` of its entry). */
  priorCostUsd: number;
  now: () => number;
  /** The decision already made (cluster: by the gateway); the ledger then only records. */
  preset?: PresetTurnBudget;
}

/** Starts the accounting of a turn: decides its budget before any model call. */
export async function startTurnUsage(params: StartTurnUsageParams): Promise<TurnUsage> {
  const { deps, agentId } = params;
  const ledger = deps.usage;
  const { preset } = params;
  const budget = preset ? preset.budget : ledger ? agentBudgetOf(deps.config, agentId) : undefined;
  const turn = preset ? preset.turn : ledger ? await decideTurnBudget({ ledger, budget }) : {};
  const cost = emptyCost();
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  let refused: string | undefined;
  let priced = true;
  const streamFn = gateModelCalls({
    ...(deps.streamFn ? { inner: deps.streamFn } : {}),
    turn,
    budget,
    turnTokens: () => tokens.total,
    onRefused: (limit) => {
      refused ??= limit;
    },
  });
  return {
    budget: turn,
    streamFn,
    add(message) {
      const usage = message.usage;
      if (!usage) return;
      tokens.input += usage.input;
      tokens.output += usage.output;
      tokens.cacheRead += usage.cacheRead;
      tokens.cacheWrite += usage.cacheWrite;
      tokens.total += usage.totalTokens;
      addCost(cost, usage.cost);
      if (usage.totalTokens > 0 && !(usage.cost?.total > 0)) priced = false;
    },
    tokens: () => tokens.total,
    costUsd: () => cost.total,
    finish({ status, provider, model }) {
      const blocked = turn.blockedText !== undefined;
      const recordStatus: UsageStatus = blocked ? "blocked" : status;
      const limit = refused ?? turn.exceeded?.limit;
      ledger?.record({
        ts: params.now(),
        agentId,
        sessionKey: params.sessionKey,
        runId: params.runId,
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
        ...tokens,
        totalTokens: tokens.total,
        cost: { ...cost },
        missingCost: !priced,
        status: recordStatus,
        ...(limit ? { budget: limit } : {}),
      });
      return {
        cacheRead: tokens.cacheRead,
        cacheWrite: tokens.cacheWrite,
        estimatedCostUsd: params.priorCostUsd + cost.total,
      };
    },
  };
}
