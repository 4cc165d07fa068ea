// Per-config routing state: the roster, the default agent and the binding index, built once per config
// object and cached in a WeakMap. The cache is rebuilt when `cfg.bindings` or `cfg.agents` (or their
// lists) are replaced, or when bindings are appended; edit configs by replacing objects, not in place.
import { resolveRoster } from "../config/resolve.js";
import {
  type CompiledBinding,
  compileBinding,
  type DroppedBinding,
  isCompiledBinding,
} from "./binding-compile.js";
import { type BindingIndex, buildBindingIndex } from "./binding-index.js";
import { normalizeAgentId } from "./ids.js";
import type { RouteConfig } from "./types.js";

/** Everything routing derives from a config's `agents` and `bindings`. */
export interface RouteContext {
  /** Valid route bindings in config order. */
  bindings: readonly CompiledBinding[];
  /** Entries routing ignores, with reasons (shown by explain). */
  dropped: readonly DroppedBinding[];
  index: BindingIndex;
  /** Normalized ids of configured agents; empty when no agent is configured. */
  roster: ReadonlySet<string>;
  /** First `default: true` agent, else the first agent, else `main`. */
  defaultAgentId: string;
}

interface CacheEntry {
  bindings: unknown;
  bindingCount: number;
  agents: unknown;
  agentList: unknown;
  agentEntries: unknown;
  context: RouteContext;
}

const contexts = new WeakMap<RouteConfig, CacheEntry>();

function isFresh(entry: CacheEntry, cfg: RouteConfig): boolean {
  const { bindings, agents } = cfg;
  return (
    entry.bindings === bindings &&
    entry.bindingCount === (Array.isArray(bindings) ? bindings.length : -1) &&
    entry.agents === agents &&
    entry.agentList === agents?.list &&
    entry.agentEntries === agents?.entries
  );
}

/** The agent that receives traffic addressed to `agentId` (normalized): itself if configured, else the default. */
function resolveOwnerAgentId(
  context: Pick<RouteContext, "roster" | "defaultAgentId">,
  agentId: string,
): string {
  const { roster } = context;
  return roster.size === 0 || roster.has(agentId) ? agentId : context.defaultAgentId;
}

/** Owner of unmatched traffic: the caller's `defaultAgentId` when given (and configured), else the default agent. */
export function resolveFallbackAgentId(
  context: RouteContext,
  requested: string | null | undefined,
): string {
  if (typeof requested !== "string" || requested.trim() === "") return context.defaultAgentId;
  return resolveOwnerAgentId(context, normalizeAgentId(requested));
}

function buildRouteContext(cfg: RouteConfig): RouteContext {
  // The one roster reading (agents.entries / agents.list, ids normalized); routing's loose config
  // type is a subset of the file's shape and resolveRoster tolerates any shape.
  const resolved = resolveRoster(cfg);
  const roster = new Set(resolved.implicit ? [] : resolved.agents.map((agent) => agent.id));
  const { defaultAgentId } = resolved;
  const resolveOwner = (agentId: string) =>
    resolveOwnerAgentId({ roster, defaultAgentId }, agentId);
  const bindings: CompiledBinding[] = [];
  const dropped: DroppedBinding[] = [];
  const raw = Array.isArray(cfg.bindings) ? cfg.bindings : [];
  raw.forEach((entry, index) => {
    const compiled = compileBinding({ raw: entry, index, resolveOwner });
    if (isCompiledBinding(compiled)) bindings.push(compiled);
    else dropped.push(compiled);
  });
  return { bindings, dropped, index: buildBindingIndex(bindings), roster, defaultAgentId };
}

/** Routing state of a config, built on first use and reused while the config is unchanged. */
export function getRouteContext(cfg: RouteConfig): RouteContext {
  const cached = contexts.get(cfg);
  if (cached && isFresh(cached, cfg)) return cached.context;
  const context = buildRouteContext(cfg);
  const { bindings, agents } = cfg;
  contexts.set(cfg, {
    bindings,
    bindingCount: Array.isArray(bindings) ? bindings.length : -1,
    agents,
    agentList: agents?.list,
    agentEntries: agents?.entries,
    context,
  });
  return context;
}
