// `pincer onboard --non-interactive`: the model half of the flags (OpenClaw's `--auth-choice`, its
// per-provider key flags, `--custom-*`, `--token*`, `--secret-input-mode`, plus Pincer's `--model`)
// turned into a ModelAnswer, or a usage error naming the flag and value that cannot work.
import { flagName } from "../command.js";
import { CliError, ExitCode } from "../command-context.js";
import type { OnboardFlags } from "./commands.js";
import {
  AUTH_CHOICES,
  type AuthChoice,
  CUSTOM_API_KEY_ENV,
  CUSTOM_COMPATIBILITY,
  DEFAULT_OLLAMA_URL,
  type KeyAnswer,
  type ModelAnswer,
  OTHER_AUTH_CHOICES,
  PROVIDER_ID,
} from "./wizard-answers.js";
import { checkCatalogModel, isBuiltinProvider, listKeyProviders } from "./wizard-catalog.js";

const usage = (message: string) => new CliError(message, ExitCode.usage);

/** `--auth-choice`, or the one provider key flag given without it (OpenClaw infers it the same way). */
function pickAuthChoice(flags: OnboardFlags): string | undefined {
  if (flags.authChoice !== undefined) return flags.authChoice;
  const given = Object.entries(AUTH_CHOICES).filter(([, c]) => flags[c.keyOption] !== undefined);
  if (given.length > 1) {
    const names = given.map(([, c]) => flagName(c.keyOption)).join(", ");
    throw usage(`several provider keys given (${names}); pass one, with --auth-choice`);
  }
  if (given.length === 1) return given[0]?.[0];
  if (flags.customBaseUrl !== undefined) return "custom-api-key";
  return undefined;
}

function secretMode(flags: OnboardFlags): "plaintext" | "ref" {
  const mode = flags.secretInputMode ?? "plaintext";
  if (mode !== "plaintext" && mode !== "ref")
    throw usage(`--secret-input-mode "${mode}": expected plaintext or ref`);
  return mode;
}

/** The key for a provider: the flag, else its env var; `ref` mode stores the env var's name. */
function keyFrom(params: {
  flag: unknown;
  flagLabel: string;
  envVar: string;
  env: Record<string, string | undefined>;
  mode: "plaintext" | "ref";
  required: boolean;
}): KeyAnswer {
  const { flag, flagLabel, envVar, env, mode } = params;
  const fromEnv = env[envVar]?.trim();
  if (mode === "ref") {
    if (!fromEnv) {
      throw usage(`--secret-input-mode ref stores a reference to ${envVar}, which is not set`);
    }
    return { kind: "env", envVar };
  }
  const secret = typeof flag === "string" ? flag.trim() : fromEnv;
  if (secret && /\s/.test(secret)) throw usage(`${flagLabel}: the key contains whitespace`);
  if (secret) return { kind: "inline", secret, type: "api_key" };
  if (params.required) throw usage(`no API key: pass ${flagLabel} or set ${envVar}`);
  return { kind: "none" };
}

/** A bare model id or `provider/model` of that provider, checked against the catalog (OpenRouter's
 * ids contain a `/` themselves, so only the provider's own prefix is stripped). */
function catalogModel(choice: AuthChoice, raw: string | undefined): string {
  const wanted = raw?.trim() || choice.defaultModel;
  const prefix = `${choice.provider}/`;
  const modelId = wanted.startsWith(prefix) ? wanted.slice(prefix.length) : wanted;
  const checked = checkCatalogModel(choice.provider, modelId);
  if (!checked.ok) throw usage(`--model: ${checked.error}`);
  return modelId;
}

function httpUrl(raw: string | undefined, flag: string): string {
  const value = raw?.trim() ?? "";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usage(`${flag} "${value}": expected an http(s) URL, e.g. https://llm.example.com/v1`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw usage(`${flag} "${value}": expected an http(s) URL`);
  return value.replace(/\/+$/, "");
}

function customModel(flags: OnboardFlags, env: Record<string, string | undefined>): ModelAnswer {
  const baseUrl = httpUrl(flags.customBaseUrl, "--custom-base-url");
  const modelId = flags.customModelId?.trim();
  if (!modelId) throw usage("--custom-model-id is required with --auth-choice custom-api-key");
  const providerId = (flags.customProviderId ?? "custom").trim().toLowerCase();
  if (!PROVIDER_ID.test(providerId))
    throw usage(`--custom-provider-id "${providerId}": expected lowercase letters, digits, - or _`);
  const compat = flags.customCompatibility ?? "openai";
  const api = CUSTOM_COMPATIBILITY[compat];
  if (!api) {
    const known = Object.keys(CUSTOM_COMPATIBILITY).join(", ");
    throw usage(`--custom-compatibility "${compat}": expected one of ${known}`);
  }
  const key = keyFrom({
    flag: flags.customApiKey,
    flagLabel: "--custom-api-key",
    envVar: CUSTOM_API_KEY_ENV,
    env,
    mode: secretMode(flags),
    required: false,
  });
  return { kind: "custom", providerId, baseUrl, modelId, api, key };
}

function ollamaModel(flags: OnboardFlags): ModelAnswer {
  const baseUrl = httpUrl(flags.customBaseUrl ?? DEFAULT_OLLAMA_URL, "--custom-base-url");
  const modelId = flags.customModelId?.trim();
  if (!modelId)
    throw usage("--custom-model-id is required with --auth-choice ollama (e.g. qwen3:8b)");
  return {
    kind: "custom",
    providerId: "ollama",
    baseUrl,
    modelId,
    api: "ollama",
    key: { kind: "none" },
  };
}

/** `--auth-choice token`: a static token for a built-in provider, stored as `<provider>:<name>`. */
function tokenModel(flags: OnboardFlags): ModelAnswer {
  const provider = flags.tokenProvider?.trim().toLowerCase();
  if (!provider) throw usage("--token-provider is required with --auth-choice token");
  if (!isBuiltinProvider(provider))
    throw usage(`--token-provider "${provider}" is not a built-in provider`);
  const secret = flags.token?.trim();
  if (!secret) throw usage("--token is required with --auth-choice token");
  const profileId = flags.tokenProfileId?.trim() || `${provider}:manual`;
  const [owner, name] = profileId.split(":");
  if (owner !== provider || !name || !/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/.test(name))
    throw usage(`--token-profile-id "${profileId}": expected ${provider}:<name>`);
  const choice: AuthChoice = { provider, keyOption: "token", envVar: "", defaultModel: "" };
  if (!flags.model)
    throw usage(`--model is required with --auth-choice token (${provider}/<model>)`);
  const modelId = catalogModel(choice, flags.model);
  return {
    kind: "builtin",
    provider,
    modelId,
    key: { kind: "inline", secret, type: "token" },
    profileName: name,
  };
}

/** The model answer of the flags; undefined when no auth choice was made (or `skip`). */
export function modelAnswerFromFlags(
  flags: OnboardFlags,
  env: Record<string, string | undefined>,
): ModelAnswer | undefined {
  const choiceName = pickAuthChoice(flags);
  if (choiceName === undefined || choiceName === "skip") return undefined;
  if (choiceName === "custom-api-key") return customModel(flags, env);
  if (choiceName === "ollama") return ollamaModel(flags);
  if (choiceName === "token") return tokenModel(flags);
  const choice = AUTH_CHOICES[choiceName];
  if (!choice) {
    const known = [...Object.keys(AUTH_CHOICES), ...OTHER_AUTH_CHOICES].join(", ");
    throw usage(`--auth-choice "${choiceName}" is not supported by Pincer; use one of: ${known}`);
  }
  if (!listKeyProviders().includes(choice.provider))
    throw usage(
      `--auth-choice ${choiceName}: provider ${choice.provider} is not in this build's catalog`,
    );
  const key = keyFrom({
    flag: flags[choice.keyOption],
    flagLabel: flagName(choice.keyOption),
    envVar: choice.envVar,
    env,
    mode: secretMode(flags),
    required: true,
  });
  return {
    kind: "builtin",
    provider: choice.provider,
    modelId: catalogModel(choice, flags.model),
    key,
  };
}

/** Commander option keys of the per-provider key flags (for registering them). */
export function providerKeyFlags(): Array<{ flag: string; provider: string }> {
  return Object.values(AUTH_CHOICES).map((c) => ({
    flag: flagName(c.keyOption),
    provider: c.provider,
  }));
}
