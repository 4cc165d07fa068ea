// Whether a model ref resolves, and where to: a built-in model, a configured provider's model or an
// error with did-you-mean hints. Decided on the built-in catalogue's ids alone (builtin-model-ids.ts),
// so config checks (gateway start, reload, `config validate`) never load pi-ai's catalogue;
// registry.ts turns a found ref into a pi-ai `Model`.
import type {
  ModelDefinition,
  ModelProvider,
  OpenClawConfig,
} from "../../protocol/config/index.js";
import {
  BUILTIN_MODEL_IDS,
  type BuiltinModelId,
  type ModelIdCatalog,
} from "./builtin-model-ids.js";
import { findProviderConfig } from "./config-view.js";
import { closeMatches, MAX_SUGGESTIONS } from "./matching.js";
import { formatModelRef, type ModelRef, normalizeProviderId } from "./refs.js";
import { resolveSecret } from "./secrets.js";

/** Ollama's address when a provider with `api: "ollama"` has no `baseUrl`. */
export const DEFAULT_OLLAMA_BASE_URL = "http://127.0.0.1:11434";

/** Wire APIs pi-ai can stream; `ollama` and `openai-chatgpt-responses` are mapped onto them. */
const SUPPORTED_APIS = new Set<string>([
  "openai-completions",
  "openai-responses",
  "azure-openai-responses",
  "openai-codex-responses",
  "anthropic-messages",
  "bedrock-converse-stream",
  "google-generative-ai",
  "google-vertex",
  "mistral-conversations",
]);
const API_ALIASES: Record<string, string> = {
  ollama: "openai-completions",
  "openai-chatgpt-responses": "openai-codex-responses",
};

/** A configured provider's model, checked: what registry.ts builds its `Model` from. */
export interface CustomModelPlan {
  providerCfg: ModelProvider;
  /** The provider's `models[]` entry for the id, if it lists one. */
  def: ModelDefinition | undefined;
  /** The wire API (aliases mapped). */
  api: string;
  /** The configured base URL (Ollama's `/v1` added); undefined: the built-in model's. */
  baseUrl: string | undefined;
  /** The provider's headers, SecretRefs resolved. */
  headers: Record<string, string>;
}

/** Result of {@link lookupModel}: where the ref resolves (`builtin`: the catalogue's entry, if any). */
export type ModelLookup =
  | { ok: true; ref: ModelRef; builtin: BuiltinModelId | undefined; custom?: CustomModelPlan }
  | { ok: false; error: string; suggestions: string[] };

/** Inputs of {@link lookupModel}; `env` resolves `{ source: "env" }` header SecretRefs. */
export interface LookupModelInput {
  cfg: OpenClawConfig;
  ref: ModelRef;
  env?: Record<string, string | undefined>;
  /** The built-in catalogue's ids (default: the generated table). */
  catalog?: ModelIdCatalog;
}

/** True when `models.mode` is `replace`: only `models.providers` exist. */
export function isReplaceMode(cfg: OpenClawConfig): boolean {
  return cfg.models?.mode === "replace";
}

/** Provider ids that can be used: custom ones plus pi-ai's built-ins (unless replace mode). */
export function listKnownProviders(
  cfg: OpenClawConfig,
  catalog: ModelIdCatalog = BUILTIN_MODEL_IDS,
): string[] {
  const custom = Object.keys(cfg.models?.providers ?? {}).map(normalizeProviderId);
  const builtin = isReplaceMode(cfg) ? [] : catalog.providers;
  return [...new Set([...custom, ...builtin])].sort();
}

function fail(error: string, suggestions: string[] = []): ModelLookup {
  const hint = suggestions.length ? `; did you mean ${suggestions.join(" or ")}?` : "";
  return { ok: false, error: `${error}${hint}`, suggestions };
}

/** Other providers' refs for a model id its own provider lacks: the same id (`m1` written without
 *  its provider lands on the default one, `anthropic/m1`, while `fake/m1` exists), else close ids
 *  (`exact: false`); configured providers first, then built-ins with the shortest provider name. */
function suggestElsewhere(params: {
  cfg: OpenClawConfig;
  catalog: ModelIdCatalog;
  ref: ModelRef;
  exact: boolean;
}): string[] {
  const { cfg, ref, exact } = params;
  const custom = Object.entries(cfg.models?.providers ?? {}).flatMap(([provider, entry]) =>
    (entry.models ?? []).map((model) => `${normalizeProviderId(provider)}/${model.id}`),
  );
  const providers = isReplaceMode(cfg)
    ? []
    : [...params.catalog.providers].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const builtin = providers.flatMap((provider) =>
    params.catalog.models(provider).map((model) => `${provider}/${model.id}`),
  );
  const refs = [...new Set([...custom, ...builtin])].filter(
    (item) => !item.startsWith(`${ref.provider}/`),
  );
  const idOf = (item: string) => item.slice(item.indexOf("/") + 1);
  const wanted = ref.model.toLowerCase();
  if (exact) return refs.filter((item) => idOf(item).toLowerCase() === wanted);
  const near = closeMatches(ref.model, [...new Set(refs.map(idOf))]);
  return near.flatMap((id) => refs.filter((item) => idOf(item) === id));
}

/** Suggestions when the provider has no close id: the same id under another provider, else the
 *  models a configured provider lists, else close ids of other providers. */
function fartherMatches(params: {
  cfg: OpenClawConfig;
  catalog: ModelIdCatalog;
  ref: ModelRef;
  listed: string[];
}): string[] {
  const { ref, listed } = params;
  const same = suggestElsewhere({ ...params, exact: true });
  const own = listed.map((id) => `${ref.provider}/${id}`);
  const found =
    same.length > 0 ? same : own.length > 0 ? own : suggestElsewhere({ ...params, exact: false });
  return found.slice(0, MAX_SUGGESTIONS);
}

function mapApi(api: string): { api: string; ollama: boolean } | { error: string } {
  const mapped = API_ALIASES[api] ?? api;
  if (!SUPPORTED_APIS.has(mapped)) {
    return {
      error: `api "${api}" is not supported (use one of: ${[...SUPPORTED_APIS].join(", ")}, ollama)`,
    };
  }
  return { api: mapped, ollama: api === "ollama" };
}

/** Ollama speaks the OpenAI protocol under `/v1`; add it when the configured URL lacks it. */
function baseUrlFor(raw: string | undefined, ollama: boolean): string | undefined {
  const trimmed = raw?.trim().replace(/\/+$/, "");
  if (!ollama) return trimmed || undefined;
  const base = trimmed || DEFAULT_OLLAMA_BASE_URL;
  return /\/v1$/.test(base) ? base : `${base}/v1`;
}

function headersFor(
  providerCfg: ModelProvider,
  env: Record<string, string | undefined>,
): Record<string, string> | { error: string } {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(providerCfg.headers ?? {})) {
    const secret = resolveSecret(value, env);
    if (!secret.ok) return { error: `header ${name}: ${secret.error}` };
    out[name] = secret.value;
  }
  return out;
}

/** Checks a configured provider's model: its API, a base URL (its own or the built-in's), headers. */
function lookupCustom(params: {
  ref: ModelRef;
  providerCfg: ModelProvider;
  builtin: BuiltinModelId | undefined;
  env: Record<string, string | undefined>;
}): ModelLookup {
  const { ref, providerCfg, builtin } = params;
  const def = providerCfg.models?.find((item) => item.id === ref.model);
  const api = mapApi(def?.api ?? providerCfg.api ?? builtin?.api ?? "openai-completions");
  if ("error" in api) return fail(`model ${formatModelRef(ref)}: ${api.error}`);
  const baseUrl = baseUrlFor(providerCfg.baseUrl, api.ollama);
  if (!baseUrl && !builtin) {
    return fail(
      `provider "${ref.provider}" needs a baseUrl (models.providers.${ref.provider}.baseUrl)`,
    );
  }
  const headers = headersFor(providerCfg, params.env);
  if ("error" in headers) return fail(`provider "${ref.provider}": ${headers.error}`);
  return { ok: true, ref, builtin, custom: { providerCfg, def, api: api.api, baseUrl, headers } };
}

/**
 * Looks a ref up: a configured provider's model (its `models[]` entry, a built-in model with the
 * provider's overrides, or, for a provider that lists no model and has no built-in catalogue, any
 * id), else the built-in catalogue. A model that neither the provider's `models[]` nor the built-in
 * catalogue has, and an unknown provider, are errors with close matches.
 */
export function lookupModel(input: LookupModelInput): ModelLookup {
  const { cfg } = input;
  const catalog = input.catalog ?? BUILTIN_MODEL_IDS;
  const ref = { provider: normalizeProviderId(input.ref.provider), model: input.ref.model };
  const builtins = isReplaceMode(cfg) ? [] : catalog.models(ref.provider);
  const builtin = builtins.find((model) => model.id === ref.model);
  const providerCfg = findProviderConfig(cfg, ref.provider);
  const listed = (providerCfg?.models ?? []).map((model) => model.id);
  // A provider whose catalogue is known (built-in models, or a `models[]` list) has no other models;
  // a configured provider that lists none accepts any id (defaults applied).
  const catalogIds = [...new Set([...listed, ...builtins.map((model) => model.id)])];
  if (providerCfg && (builtin || listed.includes(ref.model) || catalogIds.length === 0))
    return lookupCustom({ ref, providerCfg, builtin, env: input.env ?? {} });
  if (builtin) return { ok: true, ref, builtin };
  if (catalogIds.length > 0) {
    const near = closeMatches(ref.model, catalogIds).map((id) => `${ref.provider}/${id}`);
    const where =
      builtins.length === 0
        ? `models.providers.${ref.provider}.models lists ${listed.join(", ")}`
        : `provider "${ref.provider}" has ${catalogIds.length} models: pincer models list --provider ${ref.provider}`;
    const listedOwn = builtins.length ? [] : listed;
    return fail(
      `unknown model ${formatModelRef(ref)} (${where})`,
      near.length > 0 ? near : fartherMatches({ cfg, catalog, ref, listed: listedOwn }),
    );
  }
  const providers = listKnownProviders(cfg, catalog);
  const near = closeMatches(ref.provider, providers).map((id) => `${id}/${ref.model}`);
  const scope = isReplaceMode(cfg)
    ? " (models.mode is replace: only models.providers are used)"
    : "";
  return fail(`unknown provider "${ref.provider}" in ${formatModelRef(ref)}${scope}`, near);
}
