// The system prompt's Sandbox facts for one session: present exactly when the session is sandboxed.
import type { PromptSandbox } from "../../agents/system-prompt.js";
import { findAgent, type ResolvedConfig } from "../../config/resolve.js";
import { resolveSessionSandbox } from "../tools/sandbox-policy.js";
import { SANDBOX_WORKDIR } from "./backend.js";
import { resolveEffectiveSandbox } from "./config.js";

/** Whether elevated exec is on for `agentId`: `tools.elevated.enabled`, not turned off by the agent. */
function elevatedEnabled(cfg: ResolvedConfig, agentId: string): boolean {
  const own = findAgent(cfg, agentId)?.entry.tools?.elevated as { enabled?: unknown } | undefined;
  const global = cfg.config.tools?.elevated as { enabled?: unknown } | undefined;
  return global?.enabled === true && own?.enabled !== false;
}

/** The Sandbox section's params for `sessionKey` of `agentId`; undefined when it is not sandboxed. */
export function promptSandbox(params: {
  cfg: ResolvedConfig;
  agentId: string;
  sessionKey: string;
}): PromptSandbox | undefined {
  const session = resolveSessionSandbox(params);
  if (!session.sandboxed) return undefined;
  const effective = resolveEffectiveSandbox(params.cfg, params.agentId);
  return {
    enabled: true,
    workspaceDir: SANDBOX_WORKDIR,
    workspaceAccess: effective.workspaceAccess.value,
    elevated: elevatedEnabled(params.cfg, params.agentId),
  };
}
