// Which credentials an agent would use for a provider, in order: its own auth profiles (ordered by
// the store's `order`, else `auth.order`, else sticky lastGood / type / least recently used), then
// the provider's environment variable, then `models.providers.<id>.apiKey`. Profiles in cooldown,
// disabled or expired are skipped and reported. Only the one agentDir passed in is ever read.

import type { OpenClawConfig } from "../../protocol/config/index.js";
import {
  type AuthCredential,
  asCredential,
  authStorePath,
  type ProfileUsageStats,
  readAuthStore,
} from "./auth-store.js";
import type { AuthStoreCache } from "./auth-store-cache.js";
import { findProviderConfig } from "./config-view.js";
import { oauthNeedsRefresh } from "./oauth.js";
import { normalizeProviderId } from "./refs.js";
import { resolveSecret } from "./secrets.js";

/** What kind of secret a candidate carries. */
export type CredentialKind = "api_key" | "token" | "oauth" | "aws-sdk" | "none";

/** One credential to try: a profile id, `env:<VAR>` or `config`, and the secret itself. */
export interface CredentialCandidate {
  id: string;
  source: "profile" | "env" | "config";
  kind: CredentialKind;
  secret: string;
  profileId?: string;
  envVar?: string;
  /** OAuth/token expiry (ms); `needsRefresh` when an OAuth access token expires within the refresh margin. */
  expires?: number;
  needsRefresh?: boolean;
}

/** Why a credential is not a candidate right now. */
export type SkipReason =
  | "cooldown"
  | "disabled"
  | "expired"
  | "invalid"
  | "not-in-order"
  | "missing";

/** A credential that exists but is not used now (no secret included). */
export interface SkippedCredential {
  id: string;
  reason: SkipReason;
  detail: string;
  until?: number;
}

/** Result of {@link resolveCredentials}. */
export interface ResolvedCredentials {
  provider: string;
  candidates: CredentialCandidate[];
  skipped: SkippedCredential[];
  storePath: string;
  /** Set when auth-profiles.json exists but cannot be read (profiles are then ignored). */
  storeError?: string;
  /** The preferred profile (a session's pin) when it is this provider's or unknown: first, or why not. */
  preferred?: PreferredProfileOutcome;
}

/** What became of a preferred profile: tried first, or left out (the normal order applies). */
export type PreferredProfileOutcome =
  | { profileId: string; used: true }
  | { profileId: string; used: false; reason: string };

/** Inputs of {@link resolveCredentials}. */
export interface ResolveCredentialsInput {
  agentDir: string;
  provider: string;
  cfg: OpenClawConfig;
  env: Record<string, string | undefined>;
  now: number;
  /** Reuses the parsed auth-profiles.json while the file is unchanged (the runtime passes one). */
  authStores?: AuthStoreCache;
  /** A profile to try before the order (a session's pin); ignored when it is another provider's. */
  preferProfileId?: string;
}

/** Environment variables per provider, first set wins (pi-ai's names; its lookup reads process.env). */
const ENV_KEYS: Record<string, Array<[string, CredentialKind]>> = {
  anthropic: [
    ["ANTHROPIC_OAUTH_TOKEN", "token"],
    ["ANTHROPIC_API_KEY", "api_key"],
  ],
  "github-copilot": [
    ["COPILOT_GITHUB_TOKEN", "token"],
    ["GH_TOKEN", "token"],
    ["GITHUB_TOKEN", "token"],
  ],
  "amazon-bedrock": [
    ["AWS_BEARER_TOKEN_BEDROCK", "token"],
    ["AWS_ACCESS_KEY_ID", "aws-sdk"],
    ["AWS_PROFILE", "aws-sdk"],
  ],
  openai: [["OPENAI_API_KEY", "api_key"]],
  "azure-openai-responses": [["AZURE_OPENAI_API_KEY", "api_key"]],
  deepseek: [["DEEPSEEK_API_KEY", "api_key"]],
  google: [["GEMINI_API_KEY", "api_key"]],
  "google-vertex": [["GOOGLE_CLOUD_API_KEY", "api_key"]],
  groq: [["GROQ_API_KEY", "api_key"]],
  cerebras: [["CEREBRAS_API_KEY", "api_key"]],
  xai: [["XAI_API_KEY", "api_key"]],
  openrouter: [["OPENROUTER_API_KEY", "api_key"]],
  "vercel-ai-gateway": [["AI_GATEWAY_API_KEY", "api_key"]],
  zai: [["ZAI_API_KEY", "api_key"]],
  mistral: [["MISTRAL_API_KEY", "api_key"]],
  minimax: [["MINIMAX_API_KEY", "api_key"]],
  "minimax-cn": [["MINIMAX_CN_API_KEY", "api_key"]],
  moonshotai: [["MOONSHOT_API_KEY", "api_key"]],
  "moonshotai-cn": [["MOONSHOT_API_KEY", "api_key"]],
  huggingface: [["HF_TOKEN", "api_key"]],
  fireworks: [["FIREWORKS_API_KEY", "api_key"]],
  opencode: [["OPENCODE_API_KEY", "api_key"]],
  "opencode-go": [["OPENCODE_API_KEY", "api_key"]],
  "kimi-coding": [["KIMI_API_KEY", "api_key"]],
  "cloudflare-workers-ai": [["CLOUDFLARE_API_KEY", "api_key"]],
  "cloudflare-ai-gateway": [["CLOUDFLARE_API_KEY", "api_key"]],
  xiaomi: [["XIAOMI_API_KEY", "api_key"]],
};

/** The environment variables that can hold a key for `provider`, in lookup order. */
export function envVarsForProvider(provider: string): string[] {
  return (ENV_KEYS[normalizeProviderId(provider)] ?? []).map(([name]) => name);
}

const TYPE_RANK: Record<AuthCredential["type"], number> = { oauth: 0, token: 1, api_key: 2 };

function profileSecret(
  credential: AuthCredential,
  env: Record<string, string | undefined>,
): string | undefined {
  if (credential.type === "oauth") return credential.access || undefined;
  const inline = credential.type === "api_key" ? credential.key : credential.token;
  const ref = credential.type === "api_key" ? credential.keyRef : credential.tokenRef;
  if (inline?.trim()) return inline.trim();
  const resolved = ref ? resolveSecret(ref, env) : undefined;
  return resolved?.ok ? resolved.value : undefined;
}

function blockedUntil(
  stats: ProfileUsageStats | undefined,
  now: number,
): SkippedCredential | undefined {
  if (typeof stats?.disabledUntil === "number" && stats.disabledUntil > now) {
    const why = stats.disabledReason ? ` (${stats.disabledReason})` : "";
    return {
      id: "",
      reason: "disabled",
      until: stats.disabledUntil,
      detail: `disabled${why} until ${new Date(stats.disabledUntil).toISOString()}`,
    };
  }
  if (typeof stats?.cooldownUntil === "number" && stats.cooldownUntil > now) {
    const why = stats.lastFailureReason ? ` after ${stats.lastFailureReason}` : "";
    return {
      id: "",
      reason: "cooldown",
      until: stats.cooldownUntil,
      detail: `in cooldown${why} until ${new Date(stats.cooldownUntil).toISOString()}`,
    };
  }
  return undefined;
}

interface ProfileOrderInput {
  ids: string[];
  explicit: string[] | undefined;
  configured: string[];
  lastGood: string | undefined;
  credentials: Map<string, AuthCredential>;
  usage: Record<string, ProfileUsageStats>;
}

/** Explicit order (exclusive), else lastGood, config-declared, OAuth > token > key, least recently used, store order. */
function orderProfiles(input: ProfileOrderInput): string[] {
  if (input.explicit) return input.explicit;
  const rank = (id: string): number[] => {
    const configured = input.configured.indexOf(id);
    const type = input.credentials.get(id)?.type;
    return [
      id === input.lastGood ? 0 : 1,
      configured < 0 ? Number.MAX_SAFE_INTEGER : configured,
      type ? TYPE_RANK[type] : 9,
      input.usage[id]?.lastUsed ?? 0,
    ];
  };
  return [...input.ids].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i] - rb[i];
    return 0; // stable sort: ties keep the store's order (the order profiles were added)
  });
}

function profileCandidates(input: ResolveCredentialsInput, out: ResolvedCredentials): void {
  const provider = out.provider;
  const read = input.authStores?.read(input.agentDir) ?? readAuthStore(input.agentDir);
  if (read.error) out.storeError = read.error;
  const { store } = read;
  const credentials = new Map<string, AuthCredential>();
  for (const [id, stored] of Object.entries(store.profiles)) {
    const credential = asCredential(stored);
    const storedProvider =
      typeof stored?.provider === "string" ? normalizeProviderId(stored.provider) : "";
    if (credential && normalizeProviderId(credential.provider) === provider)
      credentials.set(id, credential);
    else if (!credential && storedProvider === provider) {
      out.skipped.push({ id, reason: "invalid", detail: "unknown profile type or missing fields" });
    }
  }
  const explicit = store.order?.[provider] ?? input.cfg.auth?.order?.[provider];
  const configured = Object.entries(input.cfg.auth?.profiles ?? {})
    .filter(([, meta]) => normalizeProviderId(meta.provider) === provider)
    .map(([id]) => id);
  const ordered = orderProfiles({
    ids: [...credentials.keys()],
    explicit,
    configured,
    lastGood: store.lastGood?.[provider],
    credentials,
    usage: store.usageStats ?? {},
  });
  if (explicit) {
    for (const id of credentials.keys()) {
      if (!explicit.includes(id))
        out.skipped.push({
          id,
          reason: "not-in-order",
          detail: `not listed in the ${provider} profile order`,
        });
    }
  }
  for (const id of ordered) {
    const credential = credentials.get(id);
    if (!credential) {
      out.skipped.push({
        id,
        reason: "missing",
        detail: `listed in the ${provider} profile order but not in ${read.path}`,
      });
      continue;
    }
    const blocked = blockedUntil(store.usageStats?.[id], input.now);
    if (blocked) {
      out.skipped.push({ ...blocked, id });
      continue;
    }
    const secret = profileSecret(credential, input.env);
    if (!secret) {
      out.skipped.push({ id, reason: "invalid", detail: "profile has no usable secret" });
      continue;
    }
    const expires = credential.type === "api_key" ? undefined : credential.expires;
    if (credential.type === "token" && expires !== undefined && expires <= input.now) {
      out.skipped.push({
        id,
        reason: "expired",
        until: expires,
        detail: `token expired at ${new Date(expires).toISOString()}`,
      });
      continue;
    }
    const needsRefresh =
      credential.type === "oauth" && oauthNeedsRefresh(credential.expires, input.now);
    out.candidates.push({
      id,
      source: "profile",
      kind: credential.type,
      secret,
      profileId: id,
      ...(expires !== undefined ? { expires } : {}),
      ...(needsRefresh ? { needsRefresh } : {}),
    });
  }
}

function envCandidates(input: ResolveCredentialsInput, out: ResolvedCredentials): void {
  for (const [name, kind] of ENV_KEYS[out.provider] ?? []) {
    const value = input.env[name]?.trim();
    if (!value) continue;
    const secret = kind === "aws-sdk" ? "<aws-sdk>" : value;
    out.candidates.push({ id: `env:${name}`, source: "env", kind, secret, envVar: name });
    // pi-ai reads only the first variable that is set, so later ones are not alternatives.
    return;
  }
}

/** True for an http(s) URL on this machine (localhost, 127.0.0.0/8, ::1). */
function isLoopbackUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\./.test(host)
  );
}

function configCandidate(input: ResolveCredentialsInput, out: ResolvedCredentials): void {
  const providerCfg = findProviderConfig(input.cfg, out.provider);
  if (!providerCfg) return;
  if (providerCfg.apiKey === undefined) {
    // Local servers (Ollama, or any provider served on this machine: llama.cpp, vLLM, LM Studio)
    // need no key, but pi-ai insists on one: send a placeholder.
    if (providerCfg.api === "ollama") {
      out.candidates.push({ id: "config", source: "config", kind: "none", secret: "ollama" });
    } else if (isLoopbackUrl(providerCfg.baseUrl)) {
      out.candidates.push({ id: "config", source: "config", kind: "none", secret: "local" });
    }
    return;
  }
  const resolved = resolveSecret(providerCfg.apiKey, input.env);
  if (!resolved.ok) {
    out.skipped.push({
      id: "config",
      reason: "invalid",
      detail: `models.providers.${out.provider}.apiKey: ${resolved.error}`,
    });
    return;
  }
  out.candidates.push({
    id: "config",
    source: "config",
    kind: "api_key",
    secret: resolved.value,
    ...(resolved.envVar ? { envVar: resolved.envVar } : {}),
  });
}

/** Moves the preferred profile to the front when it is a usable candidate; otherwise says why
 *  (skipped, or not in the store), unless it is another provider's profile. */
function preferProfile(
  input: ResolveCredentialsInput,
  out: ResolvedCredentials,
  profileId: string,
): void {
  const index = out.candidates.findIndex((candidate) => candidate.profileId === profileId);
  if (index >= 0) {
    const [candidate] = out.candidates.splice(index, 1);
    out.candidates.unshift(candidate);
    out.preferred = { profileId, used: true };
    return;
  }
  const skipped = out.skipped.find((item) => item.id === profileId);
  if (skipped) {
    out.preferred = { profileId, used: false, reason: skipped.detail };
    return;
  }
  const read = input.authStores?.read(input.agentDir) ?? readAuthStore(input.agentDir);
  const stored = read.store.profiles[profileId];
  if (stored) return; // another provider's profile: not this model's concern
  out.preferred = {
    profileId,
    used: false,
    reason: read.error ? read.error : `no profile ${profileId} in ${read.path}`,
  };
}

/** Ordered credentials of one agent for one provider (profiles, env, config), duplicates removed. */
export function resolveCredentials(input: ResolveCredentialsInput): ResolvedCredentials {
  const provider = normalizeProviderId(input.provider);
  const out: ResolvedCredentials = {
    provider,
    candidates: [],
    skipped: [],
    storePath: authStorePath(input.agentDir),
  };
  profileCandidates(input, out);
  if (input.preferProfileId) preferProfile(input, out, input.preferProfileId);
  envCandidates(input, out);
  configCandidate(input, out);
  const seen = new Set<string>();
  out.candidates = out.candidates.filter((candidate) => {
    if (seen.has(candidate.secret)) return false;
    seen.add(candidate.secret);
    return true;
  });
  return out;
}
