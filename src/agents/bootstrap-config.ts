// The config knobs of workspace seeding and bootstrap injection for one agent, read from the resolved
// roster (config/resolve.ts: the agent's entry over `agents.defaults`, the legacy `agent` folded there).
// Code holding a ResolvedConfig reads `agent.skipBootstrap` / `agent.bootstrapMaxChars` directly.
import { lookupAgent, resolveRoster } from "../config/resolve.js";
import type { OpenClawConfig } from "../protocol/config/index.js";

export {
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
} from "../config/resolve.js";

/** Resolved injection caps for one agent. */
export interface BootstrapLimits {
  maxChars: number;
  totalMaxChars: number;
}

/** Whether seeding bootstrap files is off for this agent (`skipBootstrap`, entry over defaults). */
export function resolveSkipBootstrap(cfg: OpenClawConfig, agentId: string): boolean {
  return lookupAgent(resolveRoster(cfg), agentId).skipBootstrap;
}

/** Per-file and total injection caps for an agent; non-positive or non-integer values are ignored. */
export function resolveBootstrapLimits(cfg: OpenClawConfig, agentId: string): BootstrapLimits {
  const agent = lookupAgent(resolveRoster(cfg), agentId);
  return { maxChars: agent.bootstrapMaxChars, totalMaxChars: agent.bootstrapTotalMaxChars };
}
