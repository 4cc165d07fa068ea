// The wizard's view of pi-ai's built-in catalog (its providers load only when a turn needs one):
// which providers can be set up with a pasted key, their models, and model ids checked with a
// did-you-mean. Custom providers are not listed here; they are typed in.
import { getModels, getProviders } from "@mariozechner/pi-ai";
import { envVarsForProvider } from "../../runtime/models/credentials.js";
import { closeMatches } from "../../runtime/models/matching.js";

/** Providers signed in by OAuth or cloud credentials, which a pasted API key cannot set up. */
const NOT_KEY_PROVIDERS = new Set(["openai-codex", "github-copilot", "amazon-bedrock"]);

/** Built-in providers the wizard offers, sorted. */
export function listKeyProviders(): string[] {
  return (getProviders() as string[]).filter((id) => !NOT_KEY_PROVIDERS.has(id)).sort();
}

/** True when `provider` is one of pi-ai's built-ins. */
export function isBuiltinProvider(provider: string): boolean {
  return (getProviders() as string[]).includes(provider);
}

/** Model ids of a built-in provider, in catalog order. */
export function listProviderModels(provider: string): string[] {
  if (!isBuiltinProvider(provider)) return [];
  const models = getModels(provider as Parameters<typeof getModels>[0]);
  return models.map((model) => model.id);
}

/** The env var holding an API key for `provider` (its `*_API_KEY` one when it has several). */
export function apiKeyEnvVar(provider: string): string | undefined {
  const vars = envVarsForProvider(provider);
  return vars.find((name) => name.endsWith("_API_KEY")) ?? vars[0];
}

/** Checks a model id against a built-in provider's catalog; an unknown one gets a did-you-mean. */
export function checkCatalogModel(
  provider: string,
  modelId: string,
): { ok: true } | { ok: false; error: string } {
  const ids = listProviderModels(provider);
  if (ids.includes(modelId)) return { ok: true };
  const near = closeMatches(modelId, ids);
  const hint = near.length
    ? `; did you mean ${near.map((id) => `${provider}/${id}`).join(" or ")}?`
    : ` (see: pincer models list --provider ${provider})`;
  return { ok: false, error: `unknown model "${provider}/${modelId}"${hint}` };
}
