// One agent of the resolved roster: where its workspace, agentDir and session store live, its model,
// and its effective settings (its entry over `agents.defaults`, legacy `agent` already folded there,
// then the built-in defaults). Built by resolve.ts; pure over (entry, defaults, paths).
import { dirname, join } from "node:path";
import type {
  AgentDefaults,
  AgentEntry,
  OpenClawConfig,
  ThinkingLevel,
} from "../protocol/config/index.js";
import type { PathSegment } from "./config-path.js";
import { expandHome, type StatePaths } from "./paths.js";

/** Run timeout when nothing is configured (seconds); `timeoutSeconds: 0` means no timeout at all. */
export const DEFAULT_RUN_TIMEOUT_SECONDS = 600;
/** Per-file bootstrap injection cap when nothing is configured (`bootstrapMaxChars`). */
export const DEFAULT_BOOTSTRAP_MAX_CHARS = 20_000;
/** Total bootstrap injection cap when nothing is configured (`bootstrapTotalMaxChars`). */
export const DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS = 150_000;

/** One configured agent with every path resolved and its effective settings. */
export interface ResolvedAgent {
  /** Normalized id (`routing/ids.ts normalizeAgentId`). */
  id: string;
  name?: string;
  /** True for the agent that owns unmatched traffic. */
  isDefault: boolean;
  /** Index in the resolved `agents.list`, or -1 for an agent without an entry (the implicit `main`). */
  index: number;
  /** Where the entry is written in the file (`["agents","entries","family"]`); `[]` without an entry. */
  source: PathSegment[];
  /** The entry as configured (id normalized); `{ id }` for an agent without an entry. */
  entry: AgentEntry;
  workspace: string;
  agentDir: string;
  sessionsDir: string;
  /** Path of `sessions.json` (honours `session.store` with `{agentId}`). */
  sessionStorePath: string;
  /** Primary model ref (entry's `model`, else `agents.defaults.model`), when one is configured. */
  model?: string;
  fallbacks: string[];
  /** Run timeout in seconds: entry, else `agents.defaults` (legacy `agent` folded), else 600; 0 = none. */
  timeoutSeconds: number;
  /** This agent's own cap on concurrent runs (`agents.list[].maxConcurrent`); the global cap is
   *  `agents.defaults.maxConcurrent` (the lane scheduler's). Undefined = only the global cap. */
  maxConcurrent?: number;
  /** Do not seed bootstrap files (pre-seeded workspaces). */
  skipBootstrap: boolean;
  /** Per-file bootstrap injection cap (positive integers only; else the default). */
  bootstrapMaxChars: number;
  /** Total bootstrap injection cap. */
  bootstrapTotalMaxChars: number;
  /** Thinking level of runs whose session sets none: entry, else `agents.defaults`. */
  thinkingDefault?: ThinkingLevel;
}

/** Inputs of {@link resolveAgentEntry}: the roster context plus one entry (or a bare id). */
export interface ResolveAgentEntryParams {
  config: OpenClawConfig;
  defaults: AgentDefaults;
  defaultAgentId: string;
  paths: StatePaths;
  index: number;
  entry?: AgentEntry;
  /** Id of an agent without an entry. */
  id?: string;
  source?: PathSegment[];
}

function primaryModel(ref: unknown): { model?: string; fallbacks: string[] } {
  if (typeof ref === "string") return { model: ref, fallbacks: [] };
  if (ref && typeof ref === "object") {
    const { primary, fallbacks } = ref as { primary?: unknown; fallbacks?: unknown };
    const list = Array.isArray(fallbacks)
      ? fallbacks.filter((item): item is string => typeof item === "string")
      : [];
    return typeof primary === "string" ? { model: primary, fallbacks: list } : { fallbacks: list };
  }
  return { fallbacks: [] };
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

function seconds(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Resolves one agent: entry keys over `agents.defaults`, then the built-in defaults. */
export function resolveAgentEntry(params: ResolveAgentEntryParams): ResolvedAgent {
  const { paths, defaults } = params;
  const entry: AgentEntry = params.entry ?? { id: params.id ?? "" };
  const id = entry.id;
  const isDefault = params.defaultAgentId === id;
  const profileSuffix = paths.profile ? `-${paths.profile}` : "";
  const ownWorkspace = typeof entry.workspace === "string" ? entry.workspace : undefined;
  const sharedWorkspace = typeof defaults.workspace === "string" ? defaults.workspace : undefined;
  const defaultWorkspace = isDefault
    ? (sharedWorkspace ?? join(paths.workspaceBase, `workspace${profileSuffix}`))
    : join(paths.workspaceBase, `workspace-${id}`);
  const workspace = expandHome(ownWorkspace ?? defaultWorkspace, paths.home);
  const ownAgentDir = typeof entry.agentDir === "string" ? entry.agentDir : undefined;
  const agentDir = expandHome(
    ownAgentDir ?? join(paths.stateDir, "agents", id, "agent"),
    paths.home,
  );
  const storeTemplate = params.config.session?.store;
  const sessionStorePath =
    typeof storeTemplate === "string"
      ? expandHome(storeTemplate.replaceAll("{agentId}", id), paths.home)
      : join(paths.stateDir, "agents", id, "sessions", "sessions.json");
  const { model, fallbacks } = primaryModel(entry.model ?? defaults.model);
  const maxConcurrent = positiveInt(entry.maxConcurrent);
  const skip = [entry.skipBootstrap, defaults.skipBootstrap].find((v) => typeof v === "boolean");
  const thinkingDefault = entry.thinkingDefault ?? defaults.thinkingDefault;
  return {
    id,
    ...(typeof entry.name === "string" && entry.name ? { name: entry.name } : {}),
    isDefault,
    index: params.index,
    source: params.source ?? [],
    entry,
    workspace,
    agentDir,
    sessionsDir: dirname(sessionStorePath),
    sessionStorePath,
    ...(model ? { model } : {}),
    fallbacks,
    timeoutSeconds:
      seconds(entry.timeoutSeconds) ??
      seconds(defaults.timeoutSeconds) ??
      DEFAULT_RUN_TIMEOUT_SECONDS,
    ...(maxConcurrent !== undefined ? { maxConcurrent } : {}),
    skipBootstrap: skip === true,
    bootstrapMaxChars:
      positiveInt(entry.bootstrapMaxChars) ??
      positiveInt(defaults.bootstrapMaxChars) ??
      DEFAULT_BOOTSTRAP_MAX_CHARS,
    bootstrapTotalMaxChars:
      positiveInt(entry.bootstrapTotalMaxChars) ??
      positiveInt(defaults.bootstrapTotalMaxChars) ??
      DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS,
    ...(thinkingDefault ? { thinkingDefault } : {}),
  };
}
