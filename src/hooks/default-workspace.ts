// The workspace hooks are looked up in and events name: the default agent's (OpenClaw's rule).
import type { ResolvedConfig } from "../config/index.js";

/** The default agent's workspace (where `<workspace>/hooks/` is searched). */
export function defaultWorkspace(cfg: ResolvedConfig): string | undefined {
  return (cfg.agents.find((agent) => agent.id === cfg.defaultAgentId) ?? cfg.agents[0])?.workspace;
}
