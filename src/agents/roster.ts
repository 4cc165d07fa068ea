// The agent roster: which agents exist, which one is the default, and where each one's
// workspace, agentDir and session store live. Pure over (config, paths).
import { dirname, join } from "node:path";
import { expandHome, type StatePaths } from "../config/paths.js";
import { DEFAULT_AGENT_ID, normalizeAgentId } from "../routing/ids.js";

/** A model reference: `"provider/model"` or `{ primary, fallbacks }`. */
export type ModelRefLike = string | { primary?: string; fallbacks?: string[] };

/** The parts of an `agents.list[]` entry the roster reads. */
export interface AgentEntryLike {
  id?: string;
  default?: boolean;
  name?: string;
  workspace?: string;
  agentDir?: string;
  model?: ModelRefLike;
}

/** The parts of the config the roster reads; `OpenClawConfig` satisfies it. */
export interface RosterConfig {
  agents?: {
    defaults?: { workspace?: string; model?: ModelRefLike };
    list?: AgentEntryLike[];
    entries?: Record<string, AgentEntryLike | undefined>;
  };
  /** Legacy top-level `agent` block (the seeds' `agent: { workspace }`): same as `agents.defaults`. */
  agent?: { workspace?: string; model?: ModelRefLike };
  session?: { store?: string };
}

/** One configured agent with every path resolved. */
export interface ResolvedAgent {
  id: string;
  name?: string;
  /** True for the agent that owns unmatched traffic. */
  isDefault: boolean;
  workspace: string;
  agentDir: string;
  sessionsDir: string;
  /** Path of `sessions.json` (honours `session.store` with `{agentId}`). */
  sessionStorePath: string;
  /** Primary model ref, when one is configured. */
  model?: string;
  fallbacks: string[];
  /** Index in the configured roster, or -1 for the implicit `main` agent. */
  index: number;
}

/** Configured entries in order, with `agents.entries` (keyed by id) accepted as an alias of `agents.list`. */
export function listAgentEntries(cfg: RosterConfig): Array<AgentEntryLike & { id: string }> {
  const entries = cfg.agents?.entries;
  if (entries && typeof entries === "object") {
    return Object.entries(entries).map(([key, entry]) => ({
      ...(entry ?? {}),
      id: entry?.id ?? key,
    }));
  }
  const list = Array.isArray(cfg.agents?.list) ? cfg.agents.list : [];
  return list.map((entry) => ({ ...entry, id: String(entry?.id ?? "") }));
}

/** Default agent id: first entry with `default: true`, else the first entry, else `main`. */
export function resolveDefaultAgentId(cfg: RosterConfig): string {
  const entries = listAgentEntries(cfg);
  const marked = entries.find((entry) => entry.default === true);
  const chosen = marked ?? entries[0];
  return chosen ? normalizeAgentId(chosen.id) : DEFAULT_AGENT_ID;
}

function primaryModel(ref: ModelRefLike | undefined): { model?: string; fallbacks: string[] } {
  if (typeof ref === "string") return { model: ref, fallbacks: [] };
  if (ref && typeof ref === "object") return { model: ref.primary, fallbacks: ref.fallbacks ?? [] };
  return { fallbacks: [] };
}

/** Inputs for {@link resolveAgent}. */
export interface ResolveAgentParams {
  cfg: RosterConfig;
  paths: StatePaths;
  agentId: string;
}

/** Resolves one agent's directories and model, following OpenClaw's defaults. */
export function resolveAgent(params: ResolveAgentParams): ResolvedAgent {
  const entries = listAgentEntries(params.cfg);
  const id = normalizeAgentId(params.agentId);
  const index = entries.findIndex((entry) => normalizeAgentId(entry.id) === id);
  return resolveEntry({
    ...params,
    id,
    index,
    entries,
    defaultId: resolveDefaultAgentId(params.cfg),
  });
}

/** The roster already listed once: resolving every agent stays linear in the roster size. */
interface ResolveEntryParams extends ResolveAgentParams {
  id: string;
  index: number;
  entries: Array<AgentEntryLike & { id: string }>;
  defaultId: string;
}

function resolveEntry(params: ResolveEntryParams): ResolvedAgent {
  const { cfg, paths, id, index } = params;
  const entry = index >= 0 ? params.entries[index] : undefined;
  const isDefault = params.defaultId === id;
  const defaults = { ...cfg.agent, ...cfg.agents?.defaults };
  const profileSuffix = paths.profile ? `-${paths.profile}` : "";
  const defaultWorkspace = isDefault
    ? (defaults.workspace ?? join(paths.workspaceBase, `workspace${profileSuffix}`))
    : join(paths.workspaceBase, `workspace-${id}`);
  const workspace = expandHome(entry?.workspace ?? defaultWorkspace, paths.home);
  const agentDir = expandHome(
    entry?.agentDir ?? join(paths.stateDir, "agents", id, "agent"),
    paths.home,
  );
  const storeTemplate = cfg.session?.store;
  const sessionStorePath = storeTemplate
    ? expandHome(storeTemplate.replaceAll("{agentId}", id), paths.home)
    : join(paths.stateDir, "agents", id, "sessions", "sessions.json");
  const { model, fallbacks } = primaryModel(entry?.model ?? defaults.model);
  return {
    id,
    ...(entry?.name ? { name: entry.name } : {}),
    isDefault,
    workspace,
    agentDir,
    sessionsDir: dirname(sessionStorePath),
    sessionStorePath,
    ...(model ? { model } : {}),
    fallbacks,
    index,
  };
}

/** Every agent of the config (the implicit `main` when none is configured), paths resolved. */
export function listAgents(cfg: RosterConfig, paths: StatePaths): ResolvedAgent[] {
  const entries = listAgentEntries(cfg);
  if (entries.length === 0) return [resolveAgent({ cfg, paths, agentId: DEFAULT_AGENT_ID })];
  const defaultId = resolveDefaultAgentId(cfg);
  return entries.map((entry, index) =>
    resolveEntry({
      cfg,
      paths,
      agentId: entry.id,
      id: normalizeAgentId(entry.id),
      index,
      entries,
      defaultId,
    }),
  );
}
