// Refreshing an OAuth profile whose access token expires within the margin: the provider's refresh
// flow from pi-ai (loaded only when needed), under the agent's credential lock. After taking the
// lock the store is read again: when another process refreshed meanwhile its tokens are used as
// they are, so one refresh token is spent once. The new tokens are written back (mode 0600).
import type { OAuthCredentials } from "@mariozechner/pi-ai";
import { asCredential, readAuthStore, updateAuthStore } from "./auth-store.js";
import { withAuthStoreLock } from "./refresh-lock.js";

/** An access token expiring sooner than this is refreshed before use (ms). */
export const OAUTH_REFRESH_MARGIN_MS = 5 * 60_000;

/** Exchanges expired credentials for fresh ones and the API key to send. */
export type OAuthRefresher = (input: {
  provider: string;
  credentials: OAuthCredentials;
}) => Promise<{ credentials: OAuthCredentials; apiKey: string }>;

/** Inputs of {@link refreshOAuthProfile}; `refresher` defaults to pi-ai's OAuth providers. */
export interface RefreshOAuthProfileInput {
  agentDir: string;
  profileId: string;
  now: number;
  refresher?: OAuthRefresher;
  /** Written into the lock file (default process.pid). */
  pid?: number;
  /** How long to wait for another process holding the lock (ms). */
  lockWaitMs?: number;
}

/** Result of {@link refreshOAuthProfile}: the key to use now, or why the profile is unusable.
 *  `refreshed` is true when this call spent the refresh token. */
export type RefreshOAuthResult =
  | { ok: true; apiKey: string; expires: number; refreshed: boolean }
  | { ok: false; error: string };

/** True when an OAuth access token expiring at `expires` must be refreshed before use at `now`. */
export function oauthNeedsRefresh(expires: number, now: number): boolean {
  return expires <= now + OAUTH_REFRESH_MARGIN_MS;
}

/** pi-ai's registered OAuth provider `provider` (built-ins: anthropic, openai-codex, github-copilot). */
async function piAiProvider(provider: string) {
  const { getOAuthProvider } = await import("@mariozechner/pi-ai/oauth");
  const impl = getOAuthProvider(provider);
  if (!impl) throw new Error(`provider ${provider} has no OAuth refresh flow`);
  return impl;
}

/** pi-ai's refresh flow, imported on first use. */
const piAiRefresher: OAuthRefresher = async ({ provider, credentials }) => {
  const impl = await piAiProvider(provider);
  const fresh = await impl.refreshToken(credentials);
  return { credentials: fresh, apiKey: impl.getApiKey(fresh) };
};

type StoredOAuth =
  | { ok: true; provider: string; tokens: OAuthCredentials }
  | { ok: false; error: string };

function readOAuthProfile(agentDir: string, profileId: string): StoredOAuth {
  const read = readAuthStore(agentDir);
  if (read.error) return { ok: false, error: read.error };
  const credential = asCredential(read.store.profiles[profileId]);
  if (credential?.type !== "oauth") {
    return { ok: false, error: `${profileId} is not an OAuth profile in ${read.path}` };
  }
  const { type: _type, provider, ...tokens } = credential;
  return { ok: true, provider, tokens };
}

/** Refreshes the profile when its access token is (nearly) expired and persists the result. */
export async function refreshOAuthProfile(
  input: RefreshOAuthProfileInput,
): Promise<RefreshOAuthResult> {
  const first = readOAuthProfile(input.agentDir, input.profileId);
  if (!first.ok) return first;
  if (!oauthNeedsRefresh(first.tokens.expires, input.now)) {
    return {
      ok: true,
      apiKey: first.tokens.access,
      expires: first.tokens.expires,
      refreshed: false,
    };
  }
  const locked = await withAuthStoreLock(
    {
      agentDir: input.agentDir,
      pid: input.pid ?? process.pid,
      command: `oauth refresh ${input.profileId}`,
      ...(input.lockWaitMs !== undefined ? { waitMs: input.lockWaitMs } : {}),
    },
    () => refreshLocked(input),
  );
  if (!locked.ok) return { ok: false, error: `refreshing ${input.profileId}: ${locked.error}` };
  return locked.value;
}

/** The refresh itself, with the lock held: re-read first, another process may have refreshed. */
async function refreshLocked(input: RefreshOAuthProfileInput): Promise<RefreshOAuthResult> {
  const current = readOAuthProfile(input.agentDir, input.profileId);
  if (!current.ok) return current;
  if (!oauthNeedsRefresh(current.tokens.expires, input.now)) {
    const { access, expires } = current.tokens;
    return { ok: true, apiKey: access, expires, refreshed: false };
  }
  const refresher = input.refresher ?? piAiRefresher;
  let fresh: { credentials: OAuthCredentials; apiKey: string };
  try {
    fresh = await refresher({ provider: current.provider, credentials: current.tokens });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `refreshing ${input.profileId} failed: ${reason}` };
  }
  updateAuthStore(input.agentDir, (store) => {
    const previous = store.profiles[input.profileId] ?? {};
    store.profiles[input.profileId] = {
      ...previous,
      ...fresh.credentials,
      type: "oauth",
      provider: current.provider,
    };
  });
  return { ok: true, apiKey: fresh.apiKey, expires: fresh.credentials.expires, refreshed: true };
}

/** The part of a credential candidate {@link candidateApiKey} looks at. */
export interface KeyCandidate {
  secret: string;
  profileId?: string;
  needsRefresh?: boolean;
}

/** The key to send for a candidate: its secret, or for an OAuth profile near expiry a refreshed one. */
export async function candidateApiKey(input: {
  agentDir: string;
  candidate: KeyCandidate;
  now: number;
}): Promise<{ ok: true; apiKey: string } | { ok: false; error: string }> {
  const { candidate } = input;
  if (!candidate.needsRefresh || !candidate.profileId)
    return { ok: true, apiKey: candidate.secret };
  const result = await refreshOAuthProfile({
    agentDir: input.agentDir,
    profileId: candidate.profileId,
    now: input.now,
  });
  return result.ok ? { ok: true, apiKey: result.apiKey } : result;
}
