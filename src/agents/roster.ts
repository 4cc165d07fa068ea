// The agent roster over a raw config, for callers that hold only the file's value: every function
// resolves the config through config/resolve.ts (the one implementation of `agents.list` /
// `agents.entries` / legacy `agent`) and reads the result. Code that has a ResolvedConfig (the
// gateway, the runtime) reads `resolved.agents` directly instead.
import type { StatePaths } from "../config/paths.js";
import {
  lookupAgent,
  type ResolvedAgent,
  type ResolvedConfig,
  resolveConfig,
  resolveRoster,
} from "../config/resolve.js";
import type { AgentEntry, OpenClawConfig } from "../protocol/config/index.js";

export type { ResolvedAgent } from "../config/resolve.js";

function rosterOf(cfg: OpenClawConfig, paths?: StatePaths): ResolvedConfig {
  return paths ? resolveConfig({ config: cfg, paths }) : resolveRoster(cfg);
}

/** Configured entries in roster order (`agents.entries` folded into `agents.list`, ids normalized). */
export function listAgentEntries(cfg: OpenClawConfig): AgentEntry[] {
  return rosterOf(cfg).config.agents?.list ?? [];
}

/** Default agent id: first entry with `default: true`, else the first entry, else `main`. */
export function resolveDefaultAgentId(cfg: OpenClawConfig): string {
  return rosterOf(cfg).defaultAgentId;
}

/** Inputs for {@link resolveAgent}. */
export interface ResolveAgentParams {
  cfg: OpenClawConfig;
  paths: StatePaths;
  agentId: string;
}

/** Resolves one agent's directories, model and settings (an unknown id gets defaults only). */
export function resolveAgent(params: ResolveAgentParams): ResolvedAgent {
  return lookupAgent(rosterOf(params.cfg, params.paths), params.agentId);
}

/** Every agent of the config (the implicit `main` when none is configured), paths resolved. */
export function listAgents(cfg: OpenClawConfig, paths: StatePaths): ResolvedAgent[] {
  return [...rosterOf(cfg, paths).agents];
}
