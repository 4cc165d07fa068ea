// Resolving a model ref to a pi-ai `Model`: model-lookup.ts decides where the ref resolves (or why
// not) on the catalogue's ids; this builds the `Model` from pi-ai's built-in catalogue (loaded with
// this module) merged with, or replaced by, the custom providers of `models.providers`.
import { type Api, getModels, getProviders, type Model } from "@mariozechner/pi-ai";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { type CustomModelPlan, isReplaceMode, lookupModel } from "./model-lookup.js";
import { formatModelRef, type ModelRef, normalizeProviderId } from "./refs.js";

export {
  DEFAULT_OLLAMA_BASE_URL,
  isReplaceMode,
  listKnownProviders,
} from "./model-lookup.js";

/** Context window assumed for a custom model that does not state one (OpenClaw's default). */
export const DEFAULT_CONTEXT_WINDOW = 200_000;
/** Output cap assumed for a custom model that does not state one. */
export const DEFAULT_MAX_TOKENS = 8192;

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

function builtinModel(ref: ModelRef): Model<Api> | undefined {
  const provider = ref.provider as Parameters<typeof getModels>[0];
  if (!(getProviders() as string[]).includes(provider)) return undefined;
  return (getModels(provider) as Model<Api>[]).find((model) => model.id === ref.model);
}

/** Builds a model of a configured provider: its `models[]` entry (if any) over the built-in base. */
function customModel(ref: ModelRef, plan: CustomModelPlan, base: Model<Api> | undefined) {
  const { def } = plan;
  const allHeaders = { ...base?.headers, ...plan.headers, ...def?.headers };
  const input_ = (def?.input ?? base?.input ?? ["text"]).filter(
    (kind): kind is "text" | "image" => kind === "text" || kind === "image",
  );
  const contextWindow = def?.contextWindow ?? base?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const model: Model<Api> = {
    ...base,
    id: ref.model,
    name: def?.name ?? base?.name ?? ref.model,
    api: plan.api,
    provider: ref.provider,
    baseUrl: plan.baseUrl ?? base?.baseUrl ?? "",
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
  const source: ModelSource = def ? "custom" : base ? "builtin" : "custom-default";
  return { ok: true as const, model, source };
}

/**
 * Resolves a ref (see `lookupModel` for which refs resolve and the errors of those that do not):
 * a configured provider's model with defaults over its built-in base, else the built-in model.
 */
export function resolveModel(input: ResolveModelInput): ResolveModelResult {
  const found = lookupModel(input);
  if (!found.ok) return found;
  const base = found.builtin ? builtinModel(found.ref) : undefined;
  if (found.builtin && !base) return notInstalled(found.ref);
  if (found.custom) return customModel(found.ref, found.custom, base);
  return base ? { ok: true, model: base, source: "builtin" } : notInstalled(found.ref);
}

/** The generated id table names a model the installed pi-ai lacks: a broken install, said so. */
function notInstalled(ref: ModelRef): ResolveModelResult {
  const error = `model ${formatModelRef(ref)} is in Pincer's model table but not in the installed pi-ai catalogue (reinstall Pincer, or run npm run gen)`;
  return { ok: false, error, suggestions: [] };
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
  for (const provider of getProviders()) {
    if (only !== undefined && provider !== only) continue;
    for (const model of getModels(provider) as Model<Api>[]) {
      if (seen.has(`${provider}/${model.id}`)) continue;
      rows.push(toRow(model, "builtin"));
    }
  }
  return rows;
}
