// Picking the agent a command works on (`--agent ID`, else the default agent) and discovering
// its skills: shared by `skills list` and `context` so both see the same thing.
import {
  listAgentEntries,
  type ResolvedAgent,
  resolveAgent,
  resolveDefaultAgentId,
} from "../agents/roster.js";
import { type DiscoverSkillsParams, resolveBundledSkillsDir } from "../agents/skills/index.js";
import type { LoadedConfig } from "../config/index.js";
import { normalizeAgentId } from "../routing/index.js";
import { type CliContext, CliError } from "./context.js";

/** The chosen agent, resolved, with its raw config entry (if it has one). */
export interface SelectedAgent {
  agentId: string;
  agent: ResolvedAgent;
  entry?: object;
}

/** Resolves `--agent` (default: the default agent); an unknown id is a failure naming the known ones. */
export function selectAgent(loaded: LoadedConfig, requested?: string): SelectedAgent {
  const cfg = loaded.config;
  const entries = listAgentEntries(cfg);
  const defaultId = resolveDefaultAgentId(cfg);
  const agentId = normalizeAgentId(requested ?? defaultId);
  const known = entries.length ? entries.map((item) => normalizeAgentId(item.id)) : [defaultId];
  if (!known.includes(agentId)) {
    throw new CliError(`unknown agent "${requested}" (configured: ${known.join(", ")})`);
  }
  const entry = entries.find((item) => normalizeAgentId(item.id) === agentId);
  const agent = resolveAgent({ cfg, paths: loaded.paths, agentId });
  return entry ? { agentId, agent, entry } : { agentId, agent };
}

/** The agent's `skills` allowlist (`agents.list[].skills`), when it has a valid one. */
function agentSkillList(entry: object | undefined): string[] | undefined {
  const value = entry && "skills" in entry ? entry.skills : undefined;
  return Array.isArray(value) && value.every((item) => typeof item === "string")
    ? value
    : undefined;
}

/** Skill discovery inputs for the selected agent: its workspace, managed, bundled and extra folders. */
export function agentSkillParams(
  ctx: CliContext,
  params: { loaded: LoadedConfig; selected: SelectedAgent },
): DiscoverSkillsParams {
  const { loaded, selected } = params;
  const agentSkills = agentSkillList(selected.entry);
  return {
    workspaceDir: selected.agent.workspace,
    stateDir: loaded.paths.stateDir,
    bundledDir: resolveBundledSkillsDir({ moduleUrl: import.meta.url, env: ctx.env }),
    config: loaded.config,
    env: ctx.env,
    home: loaded.paths.home,
    ...(agentSkills ? { agentSkills } : {}),
  };
}
