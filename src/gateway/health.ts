// The health summary: hello-ok's snapshot.health, the `health` method and the `health` event.
import { listAgents, resolveDefaultAgentId } from "../agents/roster.js";
import type { GatewayCore } from "./context.js";

/** Builds the health summary from in-memory state only (cheap: no transcript reads). */
export function buildHealth(core: GatewayCore) {
  const started = core.now();
  const cfg = core.live.config;
  const defaultAgentId = resolveDefaultAgentId(cfg);
  const agents = listAgents(cfg, core.paths).map((agent) => {
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
  };
}
