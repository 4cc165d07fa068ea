// Manual compaction (the `/compact` command and `sessions.compact`): summarize a session's older
// history now, in the session's lane so it never races a run, with the agent's primary model.
import { lookupAgent } from "../../config/resolve.js";
import { runHooksFor } from "../../plugins/index.js";
import { normalizeAgentId, resolveAgentIdFromSessionKey } from "../../routing/index.js";
import {
  candidateApiKey,
  firstAttempt,
  resolveAgentModelChain,
  resolveModel,
} from "../models/index.js";
import { compactSession, planAgentAttempts } from "./failover-loop.js";
import type { AgentRuntimeDeps } from "./run-agent.js";

/** What a manual compaction did. */
export type ManualCompactionResult = { ok: true; detail: string } | { ok: false; error: string };

/** Compacts `sessionKey` now; refuses (as a value) when no model or credential can summarize. */
export function compactSessionNow(
  deps: AgentRuntimeDeps,
  params: { agentId?: string; sessionKey: string; instructions?: string },
): Promise<ManualCompactionResult> {
  const handle = deps.lanes.enqueue(
    params.sessionKey,
    async (signal): Promise<ManualCompactionResult> => {
      const agentId = normalizeAgentId(
        params.agentId ?? resolveAgentIdFromSessionKey(params.sessionKey),
      );
      const agent = lookupAgent(deps.config, agentId);
      const chain = resolveAgentModelChain({ cfg: deps.config, agentId });
      const now = deps.clock?.now() ?? Date.now();
      const plan = planAgentAttempts({ deps, agent, chain, now });
      const step = firstAttempt(plan);
      if (step.kind === "stop") return { ok: false, error: step.message };
      const attempt = plan.attempts[step.index];
      const resolved = resolveModel({ cfg: deps.config.config, ref: attempt.ref, env: deps.env });
      if (!resolved.ok) return { ok: false, error: resolved.error };
      const key = await candidateApiKey({
        agentDir: agent.agentDir,
        candidate: attempt.credential,
        now,
      });
      if (!key.ok) return { ok: false, error: key.error };
      const store = deps.stores.forAgent(agentId);
      if (!store.get(params.sessionKey))
        return { ok: false, error: `no session ${params.sessionKey}` };
      const transcript = await store.openTranscriptAsync(params.sessionKey, {
        cwd: agent.workspace,
      });
      const { sessionKey } = params;
      const workspaceDir = agent.workspace;
      const hooks = runHooksFor(deps.plugins, { agentId, sessionKey, workspaceDir, now: Date.now });
      const runner = { deps, agent, sessionKey, store, transcript, ...(hooks ? { hooks } : {}) };
      const result = await compactSession({
        runner,
        model: resolved.model,
        apiKey: key.apiKey,
        signal,
        ...(params.instructions ? { instructions: params.instructions } : {}),
      });
      if (!result.ok) return { ok: false, error: result.detail };
      await store.flush();
      return { ok: true, detail: result.detail };
    },
  );
  return handle.result;
}
