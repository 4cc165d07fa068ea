// resolveConfig: the one reading of openclaw.json every area runs on, computed once per load and per
// live reload. Legacy shapes are folded in (the top-level `agent` block under `agents.defaults`,
// `agents.entries` into one ordered `agents.list` with normalized ids), and the roster is resolved
// (paths, model, effective per-agent settings with defaults applied). Pure over (config, paths) and
// tolerant of any shape (it also runs on a config that failed validation).
import type { AgentDefaults, AgentEntry, OpenClawConfig } from "../protocol/config/index.js";
import { DEFAULT_AGENT_ID, normalizeAgentId } from "../routing/ids.js";
import { formatConfigPath, isPlainObject, type PathSegment } from "./config-path.js";
import { foldLegacyAgent } from "./legacy-agent.js";
import type { StatePaths } from "./paths.js";
import { type ResolvedAgent, resolveAgentEntry } from "./resolved-agent.js";

export { mergeMissing } from "./legacy-agent.js";
export type { ResolvedAgent } from "./resolved-agent.js";
export {
  DEFAULT_BOOTSTRAP_MAX_CHARS,
  DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
  DEFAULT_RUN_TIMEOUT_SECONDS,
} from "./resolved-agent.js";

/** The config as every area reads it: legacy shapes folded, the roster resolved, defaults applied. */
export interface ResolvedConfig {
  /** The file's config normalized: no top-level `agent` (folded into `agents.defaults`, its tool
   *  keys into `tools`; see legacy-agent.ts), no `agents.entries` (folded into `agents.list`, ids
   *  normalized, a repeated id dropped). Resolving it again gives the same roster and settings. */
  config: OpenClawConfig;
  /** `agents.defaults` with the legacy `agent` block folded under it (never undefined). */
  defaults: AgentDefaults;
  /** Every agent in roster order; the implicit `main` when none is configured. */
  agents: readonly ResolvedAgent[];
  /** The agent that owns unmatched traffic: first `default: true`, else the first, else `main`. */
  defaultAgentId: string;
  /** True when the file configures no agent (the roster is the implicit `main`). */
  implicit: boolean;
  /** Where the roster is written in the file: `agents.entries` (keyed by id) or `agents.list`. */
  rosterKey: "entries" | "list";
  /** Top-level keys of `defaults` that come from the legacy `agent` block (for config paths). */
  legacyKeys: ReadonlySet<string>;
  /** Values of `defaults` the legacy block supplies: defaults path (dotted) → its path in the file
   *  (`model.fallbacks` → `agent.modelFallbacks`); see {@link defaultsValuePath}. */
  legacyOrigins: ReadonlyMap<string, readonly PathSegment[]>;
  paths: StatePaths;
}

/** Inputs of {@link resolveConfig}. */
export interface ResolveConfigParams {
  /** The loaded (substituted) config; any shape is tolerated. */
  config: OpenClawConfig;
  paths: StatePaths;
}

type PlainObject = Record<string, unknown>;

/** One roster entry in the order the file gives it, and where it is written. */
interface RosterSlot {
  entry: AgentEntry;
  source: PathSegment[];
}

/** `agents.entries` (wins when both are set, as in OpenClaw) or `agents.list`; bad entries skipped,
 *  ids normalized, the first of a repeated id kept (config validate reports the repeat). */
function collectRoster(agents: PlainObject): { slots: RosterSlot[]; key: "entries" | "list" } {
  const raw: RosterSlot[] = [];
  const entries = agents.entries;
  const key = isPlainObject(entries) ? "entries" : "list";
  if (isPlainObject(entries)) {
    for (const [name, entry] of Object.entries(entries)) {
      if (!isPlainObject(entry)) continue;
      const id = normalizeAgentId(entry.id ?? name);
      raw.push({ entry: { ...entry, id } as AgentEntry, source: ["agents", "entries", name] });
    }
  } else if (Array.isArray(agents.list)) {
    agents.list.forEach((entry: unknown, index) => {
      if (!isPlainObject(entry)) return;
      const id = normalizeAgentId(entry.id);
      raw.push({ entry: { ...entry, id } as AgentEntry, source: ["agents", "list", index] });
    });
  }
  const seen = new Set<string>();
  const slots = raw.filter((slot) => !seen.has(slot.entry.id) && seen.add(slot.entry.id));
  return { slots, key };
}

/** Resolves the config once: legacy shapes folded, roster listed with paths and effective settings. */
export function resolveConfig(params: ResolveConfigParams): ResolvedConfig {
  const raw: PlainObject = isPlainObject(params.config) ? params.config : {};
  const agents = isPlainObject(raw.agents) ? raw.agents : {};
  const folded = foldLegacyAgent({
    legacy: raw.agent,
    defaults: agents.defaults,
    tools: raw.tools,
  });
  const defaults = folded.defaults as AgentDefaults;
  const { legacyKeys, legacyOrigins } = folded;
  const { slots, key: rosterKey } = collectRoster(agents);
  const list = slots.map((slot) => slot.entry);
  const { agent: _legacy, tools: _tools, ...rest } = raw;
  const { entries: _entries, ...agentsRest } = agents;
  const config = {
    ...rest,
    ...(folded.tools ? { tools: folded.tools } : {}),
    agents: { ...agentsRest, defaults, list },
  } as OpenClawConfig;
  const marked = list.find((entry) => entry.default === true);
  const defaultAgentId = (marked ?? list[0])?.id ?? DEFAULT_AGENT_ID;
  const base = {
    config,
    defaults,
    defaultAgentId,
    rosterKey,
    legacyKeys,
    legacyOrigins,
    paths: params.paths,
  };
  const resolved = slots.map((slot, index) =>
    resolveAgentEntry({ ...base, entry: slot.entry, source: slot.source, index }),
  );
  const implicit = resolved.length === 0;
  if (implicit) resolved.push(resolveAgentEntry({ ...base, id: DEFAULT_AGENT_ID, index: -1 }));
  return { ...base, agents: resolved, implicit };
}

/** State paths for a resolution whose caller reads only ids, entries and settings (paths point at /). */
const NO_PATHS: StatePaths = { home: "/", stateDir: "/", configPath: "/", workspaceBase: "/" };

/** {@link resolveConfig} for callers holding only a config value (ids, entries, settings; not paths). */
export function resolveRoster(config: unknown): ResolvedConfig {
  return resolveConfig({ config: config as OpenClawConfig, paths: NO_PATHS });
}

/** The configured agent `agentId` (normalized), or undefined when the roster does not name it. */
export function findAgent(resolved: ResolvedConfig, agentId: string): ResolvedAgent | undefined {
  const id = normalizeAgentId(agentId);
  return resolved.agents.find((agent) => agent.id === id);
}

/** The agent `agentId`; an id the roster does not name gets an entry-less agent (defaults only). */
export function lookupAgent(resolved: ResolvedConfig, agentId: string): ResolvedAgent {
  return (
    findAgent(resolved, agentId) ??
    resolveAgentEntry({ ...resolved, id: normalizeAgentId(agentId), index: -1 })
  );
}

/** Agent ids in roster order (the implicit `main` when none is configured). */
export function listAgentIds(resolved: ResolvedConfig): string[] {
  return resolved.agents.map((agent) => agent.id);
}

/** The global cap configured for runs (`agents.defaults.maxConcurrent`, legacy `agent` folded; 4
 *  when unset): the gateway's lanes and a worker's turns in flight. */
export function maxConcurrentOf(resolved: ResolvedConfig): number {
  const value = resolved.defaults.maxConcurrent;
  return typeof value === "number" && value >= 1 ? Math.floor(value) : 4;
}

/** Where `agents.defaults.<key>` is written in the file: `agent.<key>` when it came from the legacy block. */
export function defaultsKeyPath(resolved: ResolvedConfig, key: string): PathSegment[] {
  return defaultsValuePath(resolved, [key]);
}

/** Where the value at `agents.defaults.<segments>` is written in the file: the legacy block's own
 *  spelling when it supplied it (`model.fallbacks[1]` → `agent.modelFallbacks[1]`, a string
 *  `agent.model` for `model.primary`), else under `agents.defaults`. */
export function defaultsValuePath(
  resolved: ResolvedConfig,
  segments: PathSegment[],
): PathSegment[] {
  for (let length = segments.length; length > 0; length -= 1) {
    const origin = resolved.legacyOrigins.get(segments.slice(0, length).join("."));
    if (origin) return [...origin, ...segments.slice(length)];
  }
  return ["agents", "defaults", ...segments];
}

/** Config path (text) of a key of an agent's entry, or where that entry would be written. */
export function agentKeyPath(resolved: ResolvedConfig, agent: ResolvedAgent, key: string): string {
  if (agent.source.length > 0) return formatConfigPath([...agent.source, key]);
  return formatConfigPath(
    resolved.rosterKey === "entries"
      ? ["agents", "entries", agent.id, key]
      : ["agents", agent.id, key],
  );
}
