// The health summary: hello-ok's snapshot.health, the `health` method and the `health` event. Its
// `config` block says which config runs and whether the file matches it (a rejected reload shows here
// with the file's issues); `warnings` repeats that as one line for humans.
import { agentBudgetOf } from "../runtime/usage/budget.js";
import type { GatewayCore } from "./core.js";

/** Budget standing of the agents whose spend is known in memory (checked since start). */
function budgetRows(core: GatewayCore) {
  const { resolved } = core.live;
  return core.runtime.usage.snapshot().flatMap((spend) => {
    const budget = agentBudgetOf(resolved, spend.agentId);
    if (!budget) return [];
    const exceeded =
      budget.daily && spend.dayUsd >= budget.daily.usd
        ? "daily"
        : budget.monthly && spend.monthUsd >= budget.monthly.usd
          ? "monthly"
          : undefined;
    return [{ ...spend, ...(exceeded ? { exceeded } : {}) }];
  });
}

/** Builds the health summary from in-memory state (cheap: no transcript reads; the config file is only
 * hashed, and re-checked when its hash changed). */
export function buildHealth(core: GatewayCore) {
  const started = core.now();
  const config = core.live.status();
  const { defaultAgentId, agents: roster } = core.live.resolved;
  const agents = roster.map((agent) => {
    const store = core.runtime.stores.forAgent(agent.id);
    const recent = store
      .list({ limit: 5 })
      .map((row) => ({ key: row.key, updatedAt: row.entry.updatedAt }));
    return {
      agentId: agent.id,
      isDefault: agent.isDefault,
      sessions: { path: agent.sessionStorePath, count: store.size, recent },
    };
  });
  const main = agents.find((agent) => agent.isDefault) ?? agents[0];
  return {
    ok: true,
    ts: started,
    durationMs: core.now() - started,
    uptimeMs: started - core.startedAt,
    defaultAgentId,
    agents,
    sessions: main?.sessions ?? { path: "", count: 0, recent: [] },
    channels: {},
    channelOrder: [] as string[],
    channelLabels: {},
    runs: { active: core.runtime.lanes.activeCount, queued: core.runtime.lanes.queuedCount },
    config,
    budgets: budgetRows(core),
    warnings: config.warning ? [config.warning] : [],
  };
}
