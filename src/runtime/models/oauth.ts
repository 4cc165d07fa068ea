// Refreshing an expired OAuth profile (`needsRefresh` candidates): the provider's refresh flow from
// pi-ai (loaded only when needed), then the new tokens are written back to the agent's store.
import type { OAuthCredentials } from "@mariozechner/pi-ai";
import { asCredential, readAuthStore, updateAuthStore } from "./auth-store.js";

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
}

/** Result of {@link refreshOAuthProfile}: the key to use now, or why the profile is unusable. */
export type RefreshOAuthResult =
  | { ok: true; apiKey: string; expires: number; refreshed: boolean }
  | { ok: false; error: string };

/** pi-ai's refresh flow (anthropic, openai-codex, github-copilot), imported on first use. */
const piAiRefresher: OAuthRefresher = async ({ provider, credentials }) => {
  const { getOAuthProvider } = await import("@mariozechner/pi-ai/oauth");
  const impl = getOAuthProvider(provider);
  if (!impl) throw new Error(`provider ${provider} has no OAuth refresh flow`);
  const fresh = await impl.refreshToken(credentials);
  return { credentials: fresh, apiKey: impl.getApiKey(fresh) };
};

/** Refreshes the profile if its access token has expired and persists the result (mode 0600). */
export async function refreshOAuthProfile(
  input: RefreshOAuthProfileInput,
): Promise<RefreshOAuthResult> {
  const read = readAuthStore(input.agentDir);
  if (read.error) return { ok: false, error: read.error };
  const credential = asCredential(read.store.profiles[input.profileId]);
  if (credential?.type !== "oauth") {
    return { ok: false, error: `${input.profileId} is not an OAuth profile in ${read.path}` };
  }
  if (credential.expires > input.now) {
    return { ok: true, apiKey: credential.access, expires: credential.expires, refreshed: false };
  }
  const refresher = input.refresher ?? piAiRefresher;
  let fresh: { credentials: OAuthCredentials; apiKey: string };
  try {
    const { type: _type, provider: _provider, ...tokens } = credential;
    fresh = await refresher({ provider: credential.provider, credentials: tokens });
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
      provider: credential.provider,
    };
  });
  return { ok: true, apiKey: fresh.apiKey, expires: fresh.credentials.expires, refreshed: true };
}
