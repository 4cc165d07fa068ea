// An agent's `<agentDir>/auth-profiles.json` in OpenClaw's shape: API keys, tokens and OAuth
// credentials plus order, lastGood and usageStats. Read tolerantly (unknown fields survive a
// rewrite), written atomically with mode 0600 in a 0700 agentDir. One agentDir per call, always.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";

/** File name of the per-agent credential store. */
export const AUTH_PROFILES_FILE = "auth-profiles.json";
/** Store format version written by OpenClaw and Pincer. */
export const AUTH_STORE_VERSION = 1;

/** An env SecretRef a profile may use instead of an inline secret (`keyRef`, `tokenRef`). */
export interface StoredSecretRef {
  source: string;
  id: string;
}

/** A stored profile as found on disk: known types are narrowed with {@link asCredential}. */
export interface StoredProfile {
  type?: unknown;
  provider?: unknown;
  [key: string]: unknown;
}

/** `type: "api_key"`: a provider API key. */
export interface ApiKeyCredential {
  type: "api_key";
  provider: string;
  key?: string;
  keyRef?: StoredSecretRef;
  email?: string;
}

/** `type: "token"`: a static bearer token (e.g. Anthropic setup-token), optionally expiring (ms). */
export interface TokenCredential {
  type: "token";
  provider: string;
  token?: string;
  tokenRef?: StoredSecretRef;
  expires?: number;
  email?: string;
}

/** `type: "oauth"`: refreshable OAuth credentials (access, refresh, expires in ms, extras). */
export interface OAuthCredential {
  type: "oauth";
  provider: string;
  access: string;
  refresh: string;
  expires: number;
  email?: string;
  [key: string]: unknown;
}

/** A usable stored credential. */
export type AuthCredential = ApiKeyCredential | TokenCredential | OAuthCredential;

/** Per-profile health: last use, cooldown/disable windows and failure counters (ms timestamps). */
export interface ProfileUsageStats {
  lastUsed?: number;
  cooldownUntil?: number;
  disabledUntil?: number;
  disabledReason?: string;
  errorCount?: number;
  failureCounts?: Record<string, number>;
  lastFailureAt?: number;
  lastFailureReason?: string;
  [key: string]: unknown;
}

/** The whole file; keys Pincer does not know are kept as they are. */
export interface AuthProfileStore {
  version: number;
  profiles: Record<string, StoredProfile>;
  order?: Record<string, string[]>;
  lastGood?: Record<string, string>;
  usageStats?: Record<string, ProfileUsageStats>;
  [key: string]: unknown;
}

/** Result of {@link readAuthStore}; `error` is set (and `store` empty) when the file is unreadable. */
export interface AuthStoreRead {
  path: string;
  exists: boolean;
  store: AuthProfileStore;
  error?: string;
}

/** Path of an agent's auth-profiles.json. */
export function authStorePath(agentDir: string): string {
  return join(agentDir, AUTH_PROFILES_FILE);
}

/** A fresh, empty store. */
export function emptyAuthStore(): AuthProfileStore {
  return { version: AUTH_STORE_VERSION, profiles: {} };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads one agent's store; a missing file is an empty store, a broken one an `error` (no throw). */
export function readAuthStore(agentDir: string): AuthStoreRead {
  const path = authStorePath(agentDir);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { path, exists: false, store: emptyAuthStore() };
    return {
      path,
      exists: true,
      store: emptyAuthStore(),
      error: `cannot read ${path}: ${code ?? String(err)}`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return {
      path,
      exists: true,
      store: emptyAuthStore(),
      error: `${path} is not valid JSON: ${reason}`,
    };
  }
  if (!isObject(parsed) || (parsed.profiles !== undefined && !isObject(parsed.profiles))) {
    return {
      path,
      exists: true,
      store: emptyAuthStore(),
      error: `${path} is not an auth profile store`,
    };
  }
  const store: AuthProfileStore = {
    ...parsed,
    version: typeof parsed.version === "number" ? parsed.version : AUTH_STORE_VERSION,
    profiles: (parsed.profiles as Record<string, StoredProfile> | undefined) ?? {},
  };
  return { path, exists: true, store };
}

/** Writes the store atomically (mode 0600), creating the agentDir with mode 0700 if needed. */
export function writeAuthStore(agentDir: string, store: AuthProfileStore): string {
  mkdirSync(agentDir, { recursive: true, mode: 0o700 });
  const path = authStorePath(agentDir);
  writeFileAtomic(path, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
  return path;
}

/** Read-modify-write of one agent's store; refuses to overwrite a file it cannot parse. */
export function updateAuthStore(
  agentDir: string,
  mutate: (store: AuthProfileStore) => void,
): AuthProfileStore {
  const read = readAuthStore(agentDir);
  if (read.error) throw new Error(`refusing to rewrite ${read.path}: ${read.error}`);
  mutate(read.store);
  writeAuthStore(agentDir, read.store);
  return read.store;
}

function envRef(value: unknown): StoredSecretRef | undefined {
  return isObject(value) && typeof value.source === "string" && typeof value.id === "string"
    ? { source: value.source, id: value.id }
    : undefined;
}

/** Narrows a stored profile to a known credential shape, or undefined for unknown/broken ones. */
export function asCredential(profile: StoredProfile | undefined): AuthCredential | undefined {
  if (!isObject(profile) || typeof profile.provider !== "string") return undefined;
  const provider = profile.provider;
  const email = typeof profile.email === "string" ? { email: profile.email } : {};
  if (profile.type === "api_key") {
    const key = typeof profile.key === "string" ? { key: profile.key } : {};
    const keyRef = envRef(profile.keyRef);
    return { type: "api_key", provider, ...key, ...(keyRef ? { keyRef } : {}), ...email };
  }
  if (profile.type === "token") {
    const token = typeof profile.token === "string" ? { token: profile.token } : {};
    const tokenRef = envRef(profile.tokenRef);
    const expires = typeof profile.expires === "number" ? { expires: profile.expires } : {};
    return {
      type: "token",
      provider,
      ...token,
      ...(tokenRef ? { tokenRef } : {}),
      ...expires,
      ...email,
    };
  }
  if (profile.type === "oauth" && typeof profile.access === "string") {
    return {
      ...profile,
      type: "oauth",
      provider,
      access: profile.access,
      refresh: typeof profile.refresh === "string" ? profile.refresh : "",
      expires: typeof profile.expires === "number" ? profile.expires : 0,
    };
  }
  return undefined;
}

/** Inputs of {@link setAuthProfile}. */
export interface SetAuthProfileInput {
  agentDir: string;
  profileId: string;
  profile: AuthCredential;
}

/** Adds or replaces one profile and clears its failure state (a new key starts healthy). */
export function setAuthProfile(input: SetAuthProfileInput): string {
  updateAuthStore(input.agentDir, (store) => {
    store.profiles[input.profileId] = { ...input.profile };
    if (store.usageStats?.[input.profileId]) delete store.usageStats[input.profileId];
  });
  return authStorePath(input.agentDir);
}
