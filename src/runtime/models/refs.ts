// Model refs (`provider/model`, split at the first `/`), aliases, and an agent's model chain
// (primary, fallbacks, params) as configured. Pure over the config; loads no provider code.
import type { PathSegment } from "../../config/config-path.js";
import type { ResolvedConfig } from "../../config/resolve.js";
import type { AgentDefaults, ModelAliasEntry } from "../../protocol/config/index.js";
import {
  type AgentModelSettings,
  defaultsOf,
  findAgentSlot,
  normalizeProviderId,
} from "./config-view.js";

export { normalizeProviderId };

/** A model setting as written: `"provider/model"` (or alias) or `{ primary, fallbacks }`. */
type ModelSetting = AgentDefaults["model"];

/** Provider of a bare model name that is not an alias (as in OpenClaw). */
export const DEFAULT_PROVIDER = "anthropic";
/** Model used when neither the agent nor `agents.defaults` sets one (OpenClaw's default). */
export const DEFAULT_MODEL_REF = "anthropic/claude-opus-4-6";

/** A parsed model reference. */
export interface ModelRef {
  provider: string;
  model: string;
}

/** Result of {@link parseModelRef}: the ref (and the alias it came from), or why it is not one. */
export type ParsedModelRef =
  | { ok: true; ref: ModelRef; alias?: string }
  | { ok: false; error: string };

/** Options of {@link parseModelRef}: provider of bare names and the alias map (alias → ref). */
export interface ParseModelRefOptions {
  defaultProvider?: string;
  aliases?: ReadonlyMap<string, string>;
}

/** `provider/model`, the canonical string form of a ref. */
export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`;
}

function splitRef(text: string, defaultProvider: string): ParsedModelRef {
  const slash = text.indexOf("/");
  if (slash < 0) return { ok: true, ref: { provider: defaultProvider, model: text } };
  const provider = normalizeProviderId(text.slice(0, slash));
  const model = text.slice(slash + 1).trim();
  if (!provider) return { ok: false, error: `model ref "${text}" has no provider before "/"` };
  if (!model) return { ok: false, error: `model ref "${text}" has no model after "/"` };
  return { ok: true, ref: { provider, model } };
}

/** Parses `provider/model` at the first `/`; a bare name is an alias, else a default-provider model. */
export function parseModelRef(raw: string, options: ParseModelRefOptions = {}): ParsedModelRef {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!text) return { ok: false, error: "model ref is empty" };
  const defaultProvider = normalizeProviderId(options.defaultProvider ?? DEFAULT_PROVIDER);
  if (!text.includes("/")) {
    const target = options.aliases?.get(text.toLowerCase());
    if (target !== undefined) {
      const parsed = splitRef(target.trim(), defaultProvider);
      return parsed.ok ? { ...parsed, alias: text } : parsed;
    }
  }
  return splitRef(text, defaultProvider);
}

function catalogOf(settings: AgentModelSettings | undefined): Record<string, ModelAliasEntry> {
  const models = settings?.models;
  if (!models || Array.isArray(models) || typeof models !== "object") return {};
  const out: Record<string, ModelAliasEntry> = {};
  for (const [key, entry] of Object.entries(models)) if (entry) out[key] = entry;
  return out;
}

/** Alias map (lower-cased alias → ref) from `agents.defaults.models`, overlaid by the agent's own map. */
export function buildModelAliases(cfg: ResolvedConfig, agentId?: string): Map<string, string> {
  const aliases = new Map<string, string>();
  const layers = [catalogOf(defaultsOf(cfg).settings)];
  if (agentId !== undefined) layers.push(catalogOf(findAgentSlot(cfg, agentId).entry));
  for (const layer of layers) {
    for (const [ref, entry] of Object.entries(layer)) {
      const alias = typeof entry.alias === "string" ? entry.alias.trim() : "";
      if (alias) aliases.set(alias.toLowerCase(), ref);
    }
  }
  return aliases;
}

function catalogParams(
  catalog: Record<string, ModelAliasEntry>,
  key: string,
): Record<string, unknown> {
  for (const [ref, entry] of Object.entries(catalog)) {
    const parsed = parseModelRef(ref);
    if (parsed.ok && formatModelRef(parsed.ref) === key && entry.params) return entry.params;
  }
  return {};
}

/** Inputs of {@link resolveModelParams}. */
export interface ResolveModelParamsInput {
  cfg: ResolvedConfig;
  agentId: string;
  ref: ModelRef;
}

/** Params for one model: defaults.models[ref] < defaults.params < agent models[ref] < agent params. */
export function resolveModelParams(input: ResolveModelParamsInput): Record<string, unknown> {
  const key = formatModelRef(input.ref);
  const defaults = defaultsOf(input.cfg).settings;
  const entry = findAgentSlot(input.cfg, input.agentId).entry;
  return {
    ...catalogParams(catalogOf(defaults), key),
    ...defaults.params,
    ...catalogParams(catalogOf(entry), key),
    ...entry?.params,
  };
}

/** One configured model of a chain, with where it is written (empty path: the built-in default). */
export interface ChainLink {
  role: "primary" | "fallback";
  raw: string;
  ref: ModelRef;
  path: PathSegment[];
  alias?: string;
}

/** A configured ref that does not parse, with its config path. */
export interface ChainProblem {
  path: PathSegment[];
  raw: string;
  message: string;
}

/** An agent's model chain: primary, fallbacks (deduplicated), the primary's params, and provenance. */
export interface ModelChain {
  agentId: string;
  /** Absent only when the configured primary does not parse (see `problems`). */
  primary?: ModelRef;
  fallbacks: ModelRef[];
  params: Record<string, unknown>;
  links: ChainLink[];
  problems: ChainProblem[];
}

interface RawLink {
  role: ChainLink["role"];
  raw: string;
  path: PathSegment[];
}

/** The file path of a part of a model setting (`[]` = the setting itself, `["fallbacks", 0]`). */
type ModelPathOf = (segments: PathSegment[]) => PathSegment[];

function primaryOf(setting: ModelSetting | undefined, pathOf: ModelPathOf): RawLink | undefined {
  if (typeof setting === "string") return { role: "primary", raw: setting, path: pathOf([]) };
  if (setting && typeof setting === "object" && typeof setting.primary === "string") {
    return { role: "primary", raw: setting.primary, path: pathOf(["primary"]) };
  }
  return undefined;
}

function fallbacksOf(
  setting: ModelSetting | undefined,
  pathOf: ModelPathOf,
): RawLink[] | undefined {
  if (!setting || typeof setting !== "object" || !Array.isArray(setting.fallbacks))
    return undefined;
  return setting.fallbacks.map((raw, index) => ({
    role: "fallback" as const,
    raw: String(raw),
    path: pathOf(["fallbacks", index]),
  }));
}

/** Inputs of {@link resolveAgentModelChain}. */
export interface ResolveAgentModelChainInput {
  cfg: ResolvedConfig;
  agentId: string;
}

/**
 * The agent's `model` over `agents.defaults.model`: a string sets the primary only (fallbacks come
 * from the defaults), `{ fallbacks: [] }` disables them; no model anywhere gives {@link DEFAULT_MODEL_REF}.
 */
export function resolveAgentModelChain(input: ResolveAgentModelChainInput): ModelChain {
  const { cfg } = input;
  const slot = findAgentSlot(cfg, input.agentId);
  const defaults = defaultsOf(cfg);
  const agentPath: ModelPathOf = (segments) => [...slot.path, "model", ...segments];
  const defaultsPath: ModelPathOf = (segments) => defaults.pathOf("model", ...segments);
  const agentSetting = slot.entry?.model;
  const defaultSetting = defaults.settings.model;
  const primaryRaw = primaryOf(agentSetting, agentPath) ??
    primaryOf(defaultSetting, defaultsPath) ?? {
      role: "primary",
      raw: DEFAULT_MODEL_REF,
      path: [],
    };
  const fallbackRaws =
    fallbacksOf(agentSetting, agentPath) ?? fallbacksOf(defaultSetting, defaultsPath) ?? [];
  const aliases = buildModelAliases(cfg, slot.id);
  const links: ChainLink[] = [];
  const problems: ChainProblem[] = [];
  const seen = new Set<string>();
  for (const raw of [primaryRaw, ...fallbackRaws]) {
    const parsed = parseModelRef(raw.raw, { aliases });
    if (!parsed.ok) {
      problems.push({ path: raw.path, raw: raw.raw, message: parsed.error });
      continue;
    }
    const key = formatModelRef(parsed.ref);
    if (seen.has(key)) continue;
    seen.add(key);
    links.push({ ...raw, ref: parsed.ref, ...(parsed.alias ? { alias: parsed.alias } : {}) });
  }
  const primary = links.find((link) => link.role === "primary")?.ref;
  return {
    agentId: slot.id,
    ...(primary ? { primary } : {}),
    fallbacks: links.filter((link) => link.role === "fallback").map((link) => link.ref),
    params: primary ? resolveModelParams({ cfg, agentId: slot.id, ref: primary }) : {},
    links,
    problems,
  };
}
