// The wizard's model section: a provider from pi-ai's catalog (or a custom OpenAI/Anthropic-compatible
// endpoint, or Ollama), one of its models, then the key: pasted (masked, stored in auth-profiles.json),
// an env reference, the profile already stored, or none. Prefilled with the config's current model.
import { readAuthStore } from "../../runtime/models/auth-store.js";
import {
  AUTH_CHOICES,
  CUSTOM_API_KEY_ENV,
  CUSTOM_COMPATIBILITY,
  DEFAULT_OLLAMA_URL,
  type KeyAnswer,
  type ModelAnswer,
  PROVIDER_ID,
} from "./wizard-answers.js";
import { apiKeyEnvVar, listKeyProviders, listProviderModels } from "./wizard-catalog.js";
import { type Asked, CANCELLED, type Choice, type Prompter } from "./wizard-prompts.js";

/** What the model section starts from. */
export interface ModelStepContext {
  /** The default agent's current primary model ref, if any. */
  currentRef?: string;
  agentDir: string;
  env: Record<string, string | undefined>;
}

const CUSTOM = "__custom";
const OLLAMA = "__ollama";
const SKIP = "__skip";

/** Accepts a pasted key: one token, no spaces. */
export function checkPastedKey(value: string): string | undefined {
  if (value.trim() === "") return "paste the key (or press Ctrl-C to stop)";
  return /\s/.test(value.trim()) ? "a key has no spaces" : undefined;
}

function checkUrl(value: string): string | undefined {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? undefined : "use http(s)://";
  } catch {
    return "expected a URL, e.g. https://llm.example.com/v1";
  }
}

const required = (what: string) => (value: string) =>
  value.trim() === "" ? `${what} is required` : undefined;

function hasProfile(agentDir: string, provider: string): boolean {
  const read = readAuthStore(agentDir);
  return Object.keys(read.store.profiles).some((id) => id.startsWith(`${provider}:`));
}

/** How to supply the key; `envVar` offers a reference, a stored profile offers keeping it. */
async function askKey(
  p: Prompter,
  params: { provider: string; envVar?: string; ctx: ModelStepContext; optional: boolean },
): Promise<Asked<KeyAnswer>> {
  const { envVar, ctx } = params;
  const options: Choice<string>[] = [];
  const stored = hasProfile(ctx.agentDir, params.provider);
  if (stored)
    options.push({ value: "keep", label: "Keep the stored key", hint: "auth-profiles.json" });
  options.push({
    value: "paste",
    label: "Paste a key now",
    hint: "stored in auth-profiles.json, mode 0600",
  });
  if (envVar) {
    const set = ctx.env[envVar] ? "set now" : "not set in this shell";
    options.push({ value: "env", label: `Read it from $${envVar}`, hint: `a reference; ${set}` });
  }
  options.push({
    value: "none",
    label: params.optional ? "No key (the endpoint needs none)" : "Skip for now",
    hint: params.optional ? undefined : "later: pincer models auth add",
  });
  const how = await p.select({ message: "API key", options, initialValue: options[0]?.value });
  if (how === CANCELLED) return CANCELLED;
  if (how === "keep" || how === "none") return { kind: "none" };
  if (how === "env" && envVar) return { kind: "env", envVar };
  const secret = await p.password({
    message: `${params.provider} API key`,
    validate: checkPastedKey,
  });
  if (secret === CANCELLED) return CANCELLED;
  return { kind: "inline", secret: secret.trim(), type: "api_key" };
}

function splitRef(ref: string | undefined): { provider?: string; model?: string } {
  const slash = ref?.indexOf("/") ?? -1;
  if (!ref || slash <= 0) return {};
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

async function askBuiltin(
  p: Prompter,
  provider: string,
  ctx: ModelStepContext,
): Promise<Asked<ModelAnswer>> {
  const current = splitRef(ctx.currentRef);
  const ids = listProviderModels(provider);
  const preferred = Object.values(AUTH_CHOICES).find((c) => c.provider === provider)?.defaultModel;
  const initial =
    current.provider === provider && current.model && ids.includes(current.model)
      ? current.model
      : preferred && ids.includes(preferred)
        ? preferred
        : ids[0];
  const modelId = await p.search({
    message: `Model (${ids.length} from ${provider}; type to filter)`,
    options: ids.map((id) => ({ value: id })),
    ...(initial ? { initialValue: initial } : {}),
  });
  if (modelId === CANCELLED) return CANCELLED;
  const envVar = apiKeyEnvVar(provider);
  const key = await askKey(p, { provider, ctx, optional: false, ...(envVar ? { envVar } : {}) });
  if (key === CANCELLED) return CANCELLED;
  return { kind: "builtin", provider, modelId, key };
}

async function askCustom(p: Prompter, ctx: ModelStepContext): Promise<Asked<ModelAnswer>> {
  const baseUrl = await p.text({
    message: "Base URL of the OpenAI- or Anthropic-compatible API",
    placeholder: "https://llm.example.com/v1",
    validate: checkUrl,
  });
  if (baseUrl === CANCELLED) return CANCELLED;
  const compat = await p.select({
    message: "Protocol",
    options: Object.keys(CUSTOM_COMPATIBILITY).map((value) => ({ value })),
    initialValue: "openai",
  });
  if (compat === CANCELLED) return CANCELLED;
  const modelId = await p.text({ message: "Model id", validate: required("a model id") });
  if (modelId === CANCELLED) return CANCELLED;
  const providerId = await p.text({
    message: "Provider id (the part before / in model refs)",
    initialValue: "custom",
    validate: (v) => (PROVIDER_ID.test(v.trim()) ? undefined : "lowercase letters, digits, - or _"),
  });
  if (providerId === CANCELLED) return CANCELLED;
  const id = providerId.trim();
  const key = await askKey(p, { provider: id, envVar: CUSTOM_API_KEY_ENV, ctx, optional: true });
  if (key === CANCELLED) return CANCELLED;
  const api = CUSTOM_COMPATIBILITY[compat] ?? "openai-completions";
  return {
    kind: "custom",
    providerId: id,
    baseUrl: baseUrl.trim().replace(/\/+$/, ""),
    modelId: modelId.trim(),
    api,
    key,
  };
}

async function askOllama(p: Prompter): Promise<Asked<ModelAnswer>> {
  const baseUrl = await p.text({
    message: "Ollama URL",
    initialValue: DEFAULT_OLLAMA_URL,
    validate: checkUrl,
  });
  if (baseUrl === CANCELLED) return CANCELLED;
  const modelId = await p.text({
    message: "Model (as `ollama list` names it)",
    placeholder: "qwen3:8b",
    validate: required("a model"),
  });
  if (modelId === CANCELLED) return CANCELLED;
  return {
    kind: "custom",
    providerId: "ollama",
    baseUrl: baseUrl.trim().replace(/\/+$/, ""),
    modelId: modelId.trim(),
    api: "ollama",
    key: { kind: "none" },
  };
}

/** Asks the model section; undefined when the user keeps the current model. */
export async function askModel(
  p: Prompter,
  ctx: ModelStepContext,
): Promise<Asked<ModelAnswer | undefined>> {
  const current = splitRef(ctx.currentRef);
  const providers = listKeyProviders();
  const options: Choice<string>[] = [
    ...providers.map((id) => ({
      value: id,
      ...(id === current.provider ? { hint: "current" } : {}),
    })),
    { value: CUSTOM, label: "Custom endpoint", hint: "OpenAI- or Anthropic-compatible URL" },
    { value: OLLAMA, label: "Ollama", hint: "local models" },
    { value: SKIP, label: ctx.currentRef ? `Keep ${ctx.currentRef}` : "Skip (no model yet)" },
  ];
  const initialValue =
    current.provider && providers.includes(current.provider) ? current.provider : "anthropic";
  const provider = await p.search({
    message: "Model provider (type to filter)",
    options,
    initialValue,
  });
  if (provider === CANCELLED) return CANCELLED;
  if (provider === SKIP) return undefined;
  if (provider === CUSTOM) return askCustom(p, ctx);
  if (provider === OLLAMA) return askOllama(p);
  return askBuiltin(p, provider, ctx);
}
