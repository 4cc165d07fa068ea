// A session's auth profile override (`/model <ref>@<profile>`, `sessions.patch
// {authProfileOverride}`): a profile may be pinned for a provider when the agent's
// auth-profiles.json holds it as a usable credential of that provider and no explicit profile order
// leaves it out. The pin is kept per provider: a model change within the provider keeps it, a
// change to another provider drops it. Runs try the pinned profile first (credentials.ts).
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { type AuthStoreRead, asCredential, readAuthStore } from "./auth-store.js";
import type { AuthStoreCache } from "./auth-store-cache.js";
import { normalizeProviderId } from "./refs.js";

/** Where an agent's profiles are: its agentDir (auth-profiles.json) and the config (auth.order). */
export interface AuthProfileScope {
  agentDir: string;
  cfg: OpenClawConfig;
  authStores?: AuthStoreCache;
}

/** A checked profile choice, or why it is refused. */
export type AuthProfileChoice = { ok: true; profileId: string } | { ok: false; error: string };

function readStore(scope: AuthProfileScope): AuthStoreRead {
  return scope.authStores?.read(scope.agentDir) ?? readAuthStore(scope.agentDir);
}

/** The provider a stored profile belongs to (normalized), or undefined when there is no such profile. */
export function authProfileProvider(
  scope: AuthProfileScope,
  profileId: string,
): string | undefined {
  const stored = readStore(scope).store.profiles[profileId];
  return typeof stored?.provider === "string" ? normalizeProviderId(stored.provider) : undefined;
}

/** The usable profile ids of the agent, by provider, in store order. */
export function listAuthProfilesByProvider(scope: AuthProfileScope): Map<string, string[]> {
  const byProvider = new Map<string, string[]>();
  for (const [id, stored] of Object.entries(readStore(scope).store.profiles)) {
    const credential = asCredential(stored);
    if (!credential) continue;
    const provider = normalizeProviderId(credential.provider);
    byProvider.set(provider, [...(byProvider.get(provider) ?? []), id]);
  }
  return byProvider;
}

/** Checks that `profileId` may be pinned for `provider`: it exists, is that provider's, is a usable
 *  credential, and no explicit order (store `order`, else `auth.order`) leaves it out. */
export function checkAuthProfileChoice(
  scope: AuthProfileScope,
  params: { provider: string; profileId: string },
): AuthProfileChoice {
  const provider = normalizeProviderId(params.provider);
  const { profileId } = params;
  const read = readStore(scope);
  if (read.error)
    return { ok: false, error: `the agent's auth profiles cannot be read: ${read.error}` };
  const stored = read.store.profiles[profileId];
  if (!stored) {
    const known = listAuthProfilesByProvider(scope).get(provider) ?? [];
    const hint = known.length
      ? `${provider} profiles: ${known.join(", ")}`
      : `the agent has no ${provider} profile`;
    return { ok: false, error: `no auth profile "${profileId}" in ${read.path} (${hint})` };
  }
  const credential = asCredential(stored);
  const owner = typeof stored.provider === "string" ? normalizeProviderId(stored.provider) : "";
  if (owner !== provider) {
    return {
      ok: false,
      error: `auth profile "${profileId}" is for provider ${owner || "(none)"}, not ${provider}`,
    };
  }
  if (!credential) {
    return {
      ok: false,
      error: `auth profile "${profileId}" is not a usable credential (unknown type or missing fields)`,
    };
  }
  const explicit = read.store.order?.[provider] ?? scope.cfg.auth?.order?.[provider];
  if (explicit && !explicit.includes(profileId)) {
    return {
      ok: false,
      error: `auth profile "${profileId}" is not in the ${provider} profile order (${explicit.join(", ") || "empty"})`,
    };
  }
  return { ok: true, profileId };
}

/** The pin a session keeps when its model moves to `provider`: the current one if it is that
 *  provider's profile, else none. */
export function keptAuthProfileOverride(
  scope: AuthProfileScope,
  params: { current: string | undefined; provider: string },
): string | undefined {
  if (!params.current) return undefined;
  const owner = authProfileProvider(scope, params.current);
  return owner === normalizeProviderId(params.provider) ? params.current : undefined;
}

/** `<model>@<profile>` split at its last `@`, unless the whole text is a model by itself
 *  (`isModel`: ids such as `claude-3-5-sonnet@20240620` keep their `@`). `model` is "" for `@<profile>`. */
export function splitModelAndProfile(
  typed: string,
  isModel: (raw: string) => boolean,
): { model: string; profileId?: string } {
  const text = typed.trim();
  const at = text.lastIndexOf("@");
  if (at < 0 || at === text.length - 1 || isModel(text)) return { model: text };
  return { model: text.slice(0, at).trim(), profileId: text.slice(at + 1).trim() };
}
