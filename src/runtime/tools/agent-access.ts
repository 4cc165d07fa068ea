// Cross-agent rules of the session tools: agent-to-agent access (`tools.agentToAgent`, off unless enabled
// and both agents allow-listed) and sub-agent targets (`subagents.allowAgents`).

import type { ResolvedConfig } from "../../config/resolve.js";
import { normalizeAgentId } from "../../routing/index.js";
import { locateAgentEntry } from "./config.js";

/** Whether a cross-agent action may happen, and why not. */
export interface AgentAccessDecision {
  allowed: boolean;
  reason: string;
}

function matchesAny(patterns: string[] | undefined, agentId: string): boolean {
  return (patterns ?? []).some((pattern) => {
    const p = pattern.trim().toLowerCase();
    if (p === "*") return true;
    if (!p.includes("*")) return normalizeAgentId(p) === agentId;
    const escaped = p.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
    return new RegExp(`^${escaped.join(".*")}$`).test(agentId);
  });
}

/** Agent-to-agent access from `from` to a session of `to`: always for the same agent, else gated. */
export function checkAgentToAgent(params: {
  cfg: ResolvedConfig;
  from: string;
  to: string;
}): AgentAccessDecision {
  const from = normalizeAgentId(params.from);
  const to = normalizeAgentId(params.to);
  if (from === to) return { allowed: true, reason: "same agent" };
  const a2a = params.cfg.config.tools?.agentToAgent;
  if (a2a?.enabled !== true) {
    return {
      allowed: false,
      reason:
        `agent-to-agent access from "${from}" to "${to}" is disabled; it needs ` +
        "tools.agentToAgent.enabled: true and both agents in tools.agentToAgent.allow.",
    };
  }
  const missing = [from, to].filter((id) => !matchesAny(a2a.allow, id));
  if (missing.length > 0) {
    return {
      allowed: false,
      reason: `agent-to-agent access from "${from}" to "${to}" is refused: ${missing.map((id) => `"${id}"`).join(" and ")} not in tools.agentToAgent.allow.`,
    };
  }
  return { allowed: true, reason: "tools.agentToAgent allows both agents" };
}

/** Whether `requester` may spawn a sub-agent run as `target` (`subagents.allowAgents`, own entry over defaults). */
export function checkSpawnTarget(params: {
  cfg: ResolvedConfig;
  requester: string;
  target: string;
}): AgentAccessDecision {
  const requester = normalizeAgentId(params.requester);
  const target = normalizeAgentId(params.target);
  if (requester === target) return { allowed: true, reason: "same agent" };
  const { entry, path } = locateAgentEntry(params.cfg, requester);
  const allow = entry?.subagents?.allowAgents ?? params.cfg.defaults.subagents?.allowAgents;
  if (matchesAny(allow, target)) return { allowed: true, reason: "subagents.allowAgents lists it" };
  return {
    allowed: false,
    reason: `agent "${requester}" may not spawn sub-agents as "${target}"; add it to ${path}.subagents.allowAgents.`,
  };
}
