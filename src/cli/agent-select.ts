// Picking the agent a command works on (`--agent ID`, else the default agent) and discovering
// its skills: shared by `skills list` and `context` so both see the same thing.
import { type DiscoverSkillsParams, resolveBundledSkillsDir } from "../agents/skills/index.js";
import { findAgent, type LoadedConfig, listAgentIds, type ResolvedAgent } from "../config/index.js";
import type { AgentEntry } from "../protocol/config/index.js";
import { normalizeAgentId } from "../routing/index.js";
import { type CliContext, CliError } from "./command-context.js";

/** The chosen agent, resolved, with its raw config entry (if it has one). */
export interface SelectedAgent {
  agentId: string;
  agent: ResolvedAgent;
  entry?: AgentEntry;
}

/** Resolves `--agent` (default: the default agent); an unknown id is a failure naming the known ones. */
export function selectAgent(loaded: LoadedConfig, requested?: string): SelectedAgent {
  const { resolved } = loaded;
  const agentId = normalizeAgentId(requested ?? resolved.defaultAgentId);
  const agent = findAgent(resolved, agentId);
  if (!agent) {
    const known = listAgentIds(resolved).join(", ");
    throw new CliError(`unknown agent "${requested}" (configured: ${known})`);
  }
  return agent.source.length > 0 ? { agentId, agent, entry: agent.entry } : { agentId, agent };
}

/** The agent's `skills` allowlist (`agents.list[].skills`), when it has a valid one. */
function agentSkillList(entry: AgentEntry | undefined): string[] | undefined {
  const value: unknown = entry?.skills;
  return Array.isArray(value) && value.every((item) => typeof item === "string")
    ? value
    : undefined;
}

/** Skill discovery inputs for the selected agent: its workspace, managed, bundled and extra folders. */
export function agentSkillParams(
  _ctx: CliContext,
  params: { loaded: LoadedConfig; selected: SelectedAgent },
): DiscoverSkillsParams {
  const { loaded, selected } = params;
  const agentSkills = agentSkillList(selected.entry);
  return {
    workspaceDir: selected.agent.workspace,
    stateDir: loaded.paths.stateDir,
    bundledDir: resolveBundledSkillsDir({ moduleUrl: import.meta.url, env: loaded.env }),
    config: loaded.config,
    env: loaded.env,
    home: loaded.paths.home,
    ...(agentSkills ? { agentSkills } : {}),
  };
}
