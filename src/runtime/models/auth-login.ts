// Subscription logins (`models auth login`): pi-ai's OAuth providers (`@mariozechner/pi-ai/oauth`:
// openai-codex, anthropic, github-copilot, and any registered with registerOAuthProvider) run their
// flow; this module supplies the callbacks (the URL to show, questions, the pasted redirect URL as
// the fallback to the provider's 127.0.0.1 callback server), a deadline, and stores the result as
// an OAuth profile in the agent's auth-profiles.json under the credential lock.
import type { OAuthCredentials, OAuthLoginCallbacks } from "@mariozechner/pi-ai/oauth";
import { authStorePath, updateAuthStore } from "./auth-store.js";
import { withAuthStoreLock } from "./refresh-lock.js";

/** How long a login waits for the browser or a pasted URL by default (ms). */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** What a login flow needs from the user's terminal. */
export interface OAuthLoginIo {
  /** The authorization URL to open (with the provider's instructions, e.g. a device code). */
  showAuthUrl: (info: { url: string; instructions?: string }) => void;
  /** One question answered with a line (an enterprise domain, a code). */
  ask: (question: { message: string; allowEmpty: boolean }) => Promise<string>;
  /** The redirect URL (or code) the user pastes when the browser cannot reach this host's
   *  callback server; stays pending while nothing is pasted. */
  pastedRedirect: () => Promise<string>;
  progress: (message: string) => void;
}

/** Inputs of {@link loginOAuthProfile}. */
export interface LoginOAuthInput {
  agentDir: string;
  provider: string;
  /** Profile id to store under (default `<provider>:default`). */
  profileId?: string;
  io: OAuthLoginIo;
  /** Give up after this long (ms; default {@link LOGIN_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Written into the credential lock. */
  pid: number;
}

/** Result of {@link loginOAuthProfile}: where the credentials went, or why the login failed. */
export type LoginOAuthResult =
  | {
      ok: true;
      profileId: string;
      path: string;
      expires: number;
      accountId?: string;
      email?: string;
    }
  | { ok: false; error: string };

/** Ids of the OAuth providers pi-ai can log in to (built-ins plus registered ones), sorted. */
export async function listOAuthLoginProviders(): Promise<string[]> {
  const { getOAuthProviders } = await import("@mariozechner/pi-ai/oauth");
  return getOAuthProviders()
    .map((provider) => provider.id)
    .sort();
}

/** The login callbacks over `io`, all ending when `signal` aborts (the deadline). */
function loginCallbacks(
  io: OAuthLoginIo,
  params: { signal: AbortSignal; manualInput: boolean },
): OAuthLoginCallbacks {
  const { signal } = params;
  const untilAborted = <T>(pending: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const abort = () => reject(new Error(String(signal.reason ?? "login aborted")));
      if (signal.aborted) return abort();
      signal.addEventListener("abort", abort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
    });
  return {
    onAuth: (info) => io.showAuthUrl(info),
    onPrompt: (prompt) =>
      untilAborted(io.ask({ message: prompt.message, allowEmpty: prompt.allowEmpty === true })),
    onProgress: (message) => io.progress(message),
    ...(params.manualInput ? { onManualCodeInput: () => untilAborted(io.pastedRedirect()) } : {}),
    signal,
  };
}

/** Runs the provider's pi-ai login flow and stores the credentials as an OAuth profile. */
export async function loginOAuthProfile(input: LoginOAuthInput): Promise<LoginOAuthResult> {
  const { getOAuthProvider } = await import("@mariozechner/pi-ai/oauth");
  const provider = getOAuthProvider(input.provider);
  if (!provider) {
    const known = (await listOAuthLoginProviders()).join(", ");
    return { ok: false, error: `provider ${input.provider} has no login flow (logins: ${known})` };
  }
  const timeoutMs = input.timeoutMs ?? LOGIN_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(`no browser callback or pasted redirect URL within ${timeoutMs} ms`),
    timeoutMs,
  );
  let credentials: OAuthCredentials;
  try {
    credentials = await provider.login(
      loginCallbacks(input.io, {
        signal: controller.signal,
        manualInput: provider.usesCallbackServer === true,
      }),
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `${provider.name} login failed: ${reason}` };
  } finally {
    clearTimeout(timer);
    controller.abort("login finished");
  }
  // Not `<provider>:<email>`: an `@` in the id would break `/model <ref>@<profile>`.
  const profileId = input.profileId ?? `${input.provider}:default`;
  const locked = await withAuthStoreLock(
    { agentDir: input.agentDir, pid: input.pid, command: `models auth login ${input.provider}` },
    async () =>
      updateAuthStore(input.agentDir, (store) => {
        store.profiles[profileId] = { ...credentials, type: "oauth", provider: input.provider };
        if (store.usageStats?.[profileId]) delete store.usageStats[profileId];
      }),
  );
  if (!locked.ok) return { ok: false, error: `saving ${profileId}: ${locked.error}` };
  return {
    ok: true,
    profileId,
    path: authStorePath(input.agentDir),
    expires: credentials.expires,
    ...(typeof credentials.accountId === "string" ? { accountId: credentials.accountId } : {}),
    ...(typeof credentials.email === "string" ? { email: credentials.email } : {}),
  };
}
