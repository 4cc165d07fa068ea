// The parts of openclaw.json the models area reads, typed loosely so a parsed `OpenClawConfig`
// and a hand-written test object both fit; plus the agent slots (entry + config path) it walks.
import type { PathSegment } from "../../config/config-path.js";
import { DEFAULT_AGENT_ID, normalizeAgentId } from "../../routing/ids.js";

/** A model setting: `"provider/model"` (or alias) or `{ primary, fallbacks }`. */
export type ModelSettingLike = string | { primary?: string; fallbacks?: string[] };

/** One `agents.defaults.models["provider/model"]` entry: alias and params. */
export interface ModelCatalogEntryLike {
  alias?: string;
  params?: Record<string, unknown>;
}

/** `allow` / `forbid` lists of refs or `provider/*`, and what a mismatch does (default fail). */
export interface ModelPolicyLike {
  allow?: string[];
  forbid?: string[];
  onMismatch?: "fail" | "warn";
}

/** The model-related keys of `agents.defaults` and of each agent entry. */
export interface AgentModelSettings {
  model?: ModelSettingLike;
  params?: Record<string, unknown>;
  models?: Record<string, ModelCatalogEntryLike | undefined> | string[];
  modelPolicy?: ModelPolicyLike;
}

/** One `agents.list[]` / `agents.entries.<id>` entry, as far as models go. */
export interface AgentModelEntry extends AgentModelSettings {
  id?: string;
  default?: boolean;
}

/** A secret in config: an inline string (already `${VAR}`-substituted) or a SecretRef. */
export type SecretLike = string | { source: string; id: string; provider?: string };

/** One custom model of `models.providers.<id>.models[]`. */
export interface CustomModelLike {
  id: string;
  name?: string;
  api?: string;
  reasoning?: boolean;
  input?: string[];
  cost?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  contextWindow?: number;
  contextTokens?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

/** `models.providers.<id>`: endpoint, key and catalog of a custom (or overridden) provider. */
export interface ProviderConfigLike {
  baseUrl?: string;
  apiKey?: SecretLike;
  api?: string;
  headers?: Record<string, SecretLike>;
  models?: CustomModelLike[];
}

/** Everything the models area reads; `OpenClawConfig` satisfies it. */
export interface ModelsRuntimeConfig {
  agents?: {
    defaults?: AgentModelSettings;
    list?: AgentModelEntry[];
    entries?: Record<string, AgentModelEntry | undefined>;
  };
  /** Legacy top-level `agent` block: same as `agents.defaults`. */
  agent?: AgentModelSettings;
  models?: { mode?: "merge" | "replace"; providers?: Record<string, ProviderConfigLike> };
  auth?: {
    profiles?: Record<string, { provider: string; mode?: string }>;
    order?: Record<string, string[]>;
    cooldowns?: {
      billingBackoffHours?: number;
      billingBackoffHoursByProvider?: Record<string, number>;
      billingMaxHours?: number;
      failureWindowHours?: number;
    };
  };
}

/** An agent's entry with its normalized id and where it stands in the config. */
export interface AgentSlot {
  id: string;
  entry?: AgentModelEntry;
  /** Config path of the entry (`agents.list[2]`); empty for the implicit `main` agent. */
  path: PathSegment[];
}

/** The effective defaults (the legacy `agent` block under `agents.defaults`) and where a key of them is set. */
export function defaultsOf(cfg: ModelsRuntimeConfig): {
  settings: AgentModelSettings;
  pathOf: (key: keyof AgentModelSettings) => PathSegment[];
} {
  const modern = cfg.agents?.defaults ?? {};
  const legacy = cfg.agent ?? {};
  return {
    settings: { ...legacy, ...modern },
    pathOf: (key) =>
      modern[key] === undefined && legacy[key] !== undefined
        ? ["agent", key]
        : ["agents", "defaults", key],
  };
}

/** Agent slots in roster order (`agents.entries` wins over `agents.list`); the implicit `main` if none. */
export function listAgentSlots(cfg: ModelsRuntimeConfig): AgentSlot[] {
  const entries = cfg.agents?.entries;
  let slots: AgentSlot[] = [];
  if (entries && typeof entries === "object") {
    slots = Object.entries(entries)
      .filter((pair): pair is [string, AgentModelEntry] => typeof pair[1] === "object" && !!pair[1])
      .map(([key, entry]) => ({
        id: normalizeAgentId(entry.id ?? key),
        entry,
        path: ["agents", "entries", key],
      }));
  } else if (Array.isArray(cfg.agents?.list)) {
    slots = cfg.agents.list.flatMap((entry, index) =>
      entry && typeof entry === "object"
        ? [{ id: normalizeAgentId(entry.id), entry, path: ["agents", "list", index] }]
        : [],
    );
  }
  return slots.length > 0 ? slots : [{ id: DEFAULT_AGENT_ID, path: [] }];
}

/** The slot of one agent; an unknown id gets an entry-less slot (defaults only). */
export function findAgentSlot(cfg: ModelsRuntimeConfig, agentId: string): AgentSlot {
  const id = normalizeAgentId(agentId);
  return listAgentSlots(cfg).find((slot) => slot.id === id) ?? { id, path: [] };
}

const PROVIDER_ALIASES: Record<string, string> = {
  "z.ai": "zai",
  "z-ai": "zai",
  bedrock: "amazon-bedrock",
  "aws-bedrock": "amazon-bedrock",
};

/** Lower-cases a provider id and maps the usual spellings (`z.ai`, `bedrock`) to the canonical one. */
export function normalizeProviderId(raw: string): string {
  const id = raw.trim().toLowerCase();
  return PROVIDER_ALIASES[id] ?? id;
}

/** The `models.providers` entry for `provider` (ids compared after normalization). */
export function findProviderConfig(
  cfg: ModelsRuntimeConfig,
  provider: string,
): ProviderConfigLike | undefined {
  const providers = cfg.models?.providers ?? {};
  const wanted = normalizeProviderId(provider);
  const key = Object.keys(providers).find((id) => normalizeProviderId(id) === wanted);
  return key === undefined ? undefined : providers[key];
}
