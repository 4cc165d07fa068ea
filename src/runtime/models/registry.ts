// Resolving a model ref to a pi-ai `Model`: the built-in catalog (pi-ai's registry) merged with, or
// replaced by, the custom providers of `models.providers`. Errors are values with did-you-mean hints.
import type { Api, Model } from "@mariozechner/pi-ai";
import type { ModelProvider, OpenClawConfig } from "../../protocol/config/index.js";
import { catalog } from "./catalog.js";
import { findProviderConfig } from "./config-view.js";
import { closeMatches, MAX_SUGGESTIONS } from "./matching.js";
import { formatModelRef, type ModelRef, normalizeProviderId } from "./refs.js";
import { resolveSecret } from "./secrets.js";

/** Context window assumed for a custom model that does not state one (OpenClaw's default). */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
/** Output cap assumed for a custom model that does not state one. */
export const DEFAULT_MAX_TOKENS = 8192;
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

/** Where a resolved model came from. */
export type ModelSource = "builtin" | "custom" | "custom-default";

/** Result of {@link resolveModel}: a pi-ai model, or an error naming close matches. */
export type ResolveModelResult =
  | { ok: true; model: Model<Api>; source: ModelSource }
  | { ok: false; error: string; suggestions: string[] };

/** Inputs of {@link resolveModel}; `env` resolves `{ source: "env" }` header SecretRefs. */
export interface ResolveModelInput {
  cfg: OpenClawConfig;
  ref: ModelRef;
  env?: Record<string, string | undefined>;
}

/** True when `models.mode` is `replace`: only `models.providers` exist. */
export function isReplaceMode(cfg: OpenClawConfig): boolean {
  return cfg.models?.mode === "replace";
}

/** Provider ids that can be used: custom ones plus pi-ai's built-ins (unless replace mode). */
export function listKnownProviders(cfg: OpenClawConfig): string[] {
  const custom = Object.keys(cfg.models?.providers ?? {}).map(normalizeProviderId);
  const builtin = isReplaceMode(cfg) ? [] : catalog.getProviders();
  return [...new Set([...custom, ...builtin])].sort();
}

function fail(error: string, suggestions: string[] = []): ResolveModelResult {
  const hint = suggestions.length ? `; did you mean ${suggestions.join(" or ")}?` : "";
  return { ok: false, error: `${error}${hint}`, suggestions };
}

/** Other providers' refs for a model id its own provider lacks: the same id (`m1` written without
 *  its provider lands on the default one, `anthropic/m1`, while `fake/m1` exists), else close ids
 *  (`exact: false`); configured providers first, then built-ins with the shortest provider name. */
function suggestElsewhere(cfg: OpenClawConfig, ref: ModelRef, exact: boolean): string[] {
  const custom = Object.entries(cfg.models?.providers ?? {}).flatMap(([provider, entry]) =>
    (entry.models ?? []).map((model) => `${normalizeProviderId(provider)}/${model.id}`),
  );
  const providers = isReplaceMode(cfg)
    ? []
    : [...catalog.getProviders()].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const builtin = providers.flatMap((provider) =>
    (catalog.getModels(provider) as Model<Api>[]).map((model) => `${provider}/${model.id}`),
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
  ref: ModelRef;
  listed: string[];
}): string[] {
  const { cfg, ref, listed } = params;
  const same = suggestElsewhere(cfg, ref, true);
  const own = listed.map((id) => `${ref.provider}/${id}`);
  const found = same.length > 0 ? same : own.length > 0 ? own : suggestElsewhere(cfg, ref, false);
  return found.slice(0, MAX_SUGGESTIONS);
}

function builtinModels(cfg: OpenClawConfig, provider: string): Model<Api>[] {
  if (isReplaceMode(cfg)) return [];
  return (catalog.getProviders() as string[]).includes(provider)
    ? (catalog.getModels(provider as Parameters<typeof catalog.getModels>[0]) as Model<Api>[])
    : [];
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

/** Inputs of {@link customModel}. */
interface CustomModelInput {
  ref: ModelRef;
  providerCfg: ModelProvider;
  base?: Model<Api>;
  env: Record<string, string | undefined>;
}

/** Builds a model of a configured provider: its `models[]` entry (if any) over the built-in base. */
function customModel(input: CustomModelInput): ResolveModelResult {
  const { ref, providerCfg, base } = input;
  const def = providerCfg.models?.find((item) => item.id === ref.model);
  const rawApi = def?.api ?? providerCfg.api ?? base?.api ?? "openai-completions";
  const api = mapApi(rawApi);
  if ("error" in api) return fail(`model ${formatModelRef(ref)}: ${api.error}`);
  const baseUrl = baseUrlFor(providerCfg.baseUrl, api.ollama) ?? base?.baseUrl;
  if (!baseUrl && !base) {
    return fail(
      `provider "${ref.provider}" needs a baseUrl (models.providers.${ref.provider}.baseUrl)`,
    );
  }
  const headers = headersFor(providerCfg, input.env);
  if ("error" in headers) return fail(`provider "${ref.provider}": ${headers.error}`);
  const allHeaders = { ...base?.headers, ...headers, ...def?.headers };
  const input_ = (def?.input ?? base?.input ?? ["text"]).filter(
    (kind): kind is "text" | "image" => kind === "text" || kind === "image",
  );
  const contextWindow = def?.contextWindow ?? base?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const model: Model<Api> = {
    ...base,
    id: ref.model,
    name: def?.name ?? base?.name ?? ref.model,
    api: api.api,
    provider: ref.provider,
    baseUrl: baseUrl ?? "",
    reasoning: def?.reasoning ?? base?.reasoning ?? false,
    input: input_.length ? input_ : ["text"],
    cost: {
      input: def?.cost?.input ?? base?.cost.input ?? 0,
      output: def?.cost?.output ?? base?.cost.output ?? 0,
      cacheRead: def?.cost?.cacheRead ?? base?.cost.cacheRead ?? 0,
      cacheWrite: def?.cost?.cacheWrite ?? base?.cost.cacheWrite ?? 0,
    },
    contextWindow,
    maxTokens: Math.min(def?.maxTokens ?? base?.maxTokens ?? DEFAULT_MAX_TOKENS, contextWindow),
    ...(Object.keys(allHeaders).length ? { headers: allHeaders } : {}),
  };
  if (def?.compat) model.compat = { ...base?.compat, ...def.compat } as Model<Api>["compat"];
  return { ok: true, model, source: def ? "custom" : base ? "builtin" : "custom-default" };
}

/**
 * Resolves a ref: a configured provider's model (its `models[]` entry, a built-in model with the
 * provider's overrides, or, for a provider that lists no model and has no built-in catalog, any id
 * with sensible defaults), else pi-ai's built-in catalog. A model that neither the provider's
 * `models[]` nor the built-in catalog has, and an unknown provider, are errors with close matches.
 */
export function resolveModel(input: ResolveModelInput): ResolveModelResult {
  const { cfg } = input;
  const ref = { provider: normalizeProviderId(input.ref.provider), model: input.ref.model };
  const env = input.env ?? {};
  const builtins = builtinModels(cfg, ref.provider);
  const builtin = builtins.find((model) => model.id === ref.model);
  const providerCfg = findProviderConfig(cfg, ref.provider);
  const listed = (providerCfg?.models ?? []).map((model) => model.id);
  // A provider whose catalog is known (built-in models, or a `models[]` list) has no other models;
  // a configured provider that lists none accepts any id (defaults applied).
  const catalogIds = [...new Set([...listed, ...builtins.map((model) => model.id)])];
  if (providerCfg && (builtin || listed.includes(ref.model) || catalogIds.length === 0))
    return customModel({ ref, providerCfg, env, ...(builtin ? { base: builtin } : {}) });
  if (builtin) return { ok: true, model: builtin, source: "builtin" };
  if (catalogIds.length > 0) {
    const near = closeMatches(ref.model, catalogIds).map((id) => `${ref.provider}/${id}`);
    const where =
      builtins.length === 0
        ? `models.providers.${ref.provider}.models lists ${listed.join(", ")}`
        : `provider "${ref.provider}" has ${catalogIds.length} models: pincer models list --provider ${ref.provider}`;
    return fail(
      `unknown model ${formatModelRef(ref)} (${where})`,
      near.length > 0 ? near : fartherMatches({ cfg, ref, listed: builtins.length ? [] : listed }),
    );
  }
  const providers = listKnownProviders(cfg);
  const near = closeMatches(ref.provider, providers).map((id) => `${id}/${ref.model}`);
  const scope = isReplaceMode(cfg)
    ? " (models.mode is replace: only models.providers are used)"
    : "";
  return fail(`unknown provider "${ref.provider}" in ${formatModelRef(ref)}${scope}`, near);
}

/** One row of the catalog shown by `pincer models list`. */
export interface CatalogModel {
  ref: string;
  provider: string;
  id: string;
  name: string;
  api: string;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
  input: string[];
  source: "builtin" | "custom";
}

function toRow(model: Model<Api>, source: CatalogModel["source"]): CatalogModel {
  return {
    ref: `${model.provider}/${model.id}`,
    provider: model.provider,
    id: model.id,
    name: model.name,
    api: model.api,
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
    reasoning: model.reasoning,
    input: [...model.input],
    source,
  };
}

/** Inputs of {@link listModels}. */
export interface ListModelsInput {
  cfg: OpenClawConfig;
  provider?: string;
  env?: Record<string, string | undefined>;
}

/** Custom models of `models.providers` first, then the built-in catalog (hidden in replace mode). */
export function listModels(input: ListModelsInput): CatalogModel[] {
  const { cfg } = input;
  const only = input.provider === undefined ? undefined : normalizeProviderId(input.provider);
  const rows: CatalogModel[] = [];
  const seen = new Set<string>();
  for (const [rawId, providerCfg] of Object.entries(cfg.models?.providers ?? {})) {
    const provider = normalizeProviderId(rawId);
    if (only !== undefined && provider !== only) continue;
    for (const def of providerCfg.models ?? []) {
      const resolved = resolveModel({
        cfg,
        ref: { provider, model: def.id },
        env: input.env ?? {},
      });
      if (!resolved.ok || seen.has(`${provider}/${def.id}`)) continue;
      seen.add(`${provider}/${def.id}`);
      rows.push(toRow(resolved.model, "custom"));
    }
  }
  if (isReplaceMode(cfg)) return rows;
  for (const provider of catalog.getProviders()) {
    if (only !== undefined && provider !== only) continue;
    for (const model of catalog.getModels(provider) as Model<Api>[]) {
      if (seen.has(`${provider}/${model.id}`)) continue;
      rows.push(toRow(model, "builtin"));
    }
  }
  return rows;
}
