// The settings one BlueBubbles account runs with (OpenClaw's keys): the BlueBubbles server's URL
// and its API password (inline, `${VAR}` or an env SecretRef; both required: the password also
// guards the webhook, so without it nothing could be trusted), the gateway path its webhook posts
// to (default `/bluebubbles-webhook`, `/bluebubbles-webhook/<account>` for a named account), and
// the media cap.
import {
  type ChannelAccountConfig,
  DEFAULT_ACCOUNT_ID,
  positiveNumber,
  readSecretInput,
} from "../index.js";

/** OpenClaw's default webhook path. */
export const BLUEBUBBLES_WEBHOOK_PATH = "/bluebubbles-webhook";
const DEFAULT_MEDIA_MAX_MB = 8;
const DEFAULT_TIMEOUT_SECONDS = 30;

/** What a running account needs. */
export interface BlueBubblesSettings {
  /** The server's base URL, no trailing slash. */
  serverUrl: string;
  password: string;
  webhookPath: string;
  mediaMaxBytes: number;
  timeoutMs: number;
}

/** Settings, or why the account cannot run (naming the keys). */
export type BlueBubblesSettingsResult =
  | { ok: true; settings: BlueBubblesSettings }
  | { ok: false; error: string };

function where(accountId: string | undefined, key: string): string {
  return accountId === undefined || accountId === DEFAULT_ACCOUNT_ID
    ? `channels.bluebubbles.${key}`
    : `channels.bluebubbles.accounts.${accountId}.${key}`;
}

/** Resolves an account's settings from its merged config; pure. */
export function resolveBlueBubblesSettings(params: {
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  accountId?: string;
}): BlueBubblesSettingsResult {
  const { config, env, accountId } = params;
  const problems: string[] = [];
  const url = typeof config.serverUrl === "string" ? config.serverUrl.trim() : "";
  if (!url) problems.push(`no server URL; set ${where(accountId, "serverUrl")}`);
  else if (!/^https?:\/\/[^/]/i.test(url))
    problems.push(`${where(accountId, "serverUrl")} "${url}" is not an http(s) URL`);
  const password = readSecretInput({
    key: where(accountId, "password"),
    value: config.password,
    env,
  });
  if (password.problem) problems.push(password.problem);
  else if (password.value === undefined)
    problems.push(
      `no password; set ${where(accountId, "password")} (the server's API password, also checked on every webhook)`,
    );
  const rawPath = typeof config.webhookPath === "string" ? config.webhookPath.trim() : "";
  if (rawPath && !rawPath.startsWith("/"))
    problems.push(`${where(accountId, "webhookPath")} "${rawPath}" must start with /`);
  if (problems.length > 0) return { ok: false, error: `bluebubbles: ${problems.join("; ")}` };
  const named = accountId !== undefined && accountId !== DEFAULT_ACCOUNT_ID;
  return {
    ok: true,
    settings: {
      serverUrl: url.replace(/\/+$/, ""),
      password: password.value!,
      webhookPath:
        rawPath || (named ? `${BLUEBUBBLES_WEBHOOK_PATH}/${accountId}` : BLUEBUBBLES_WEBHOOK_PATH),
      mediaMaxBytes: positiveNumber(config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      timeoutMs: positiveNumber(config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000,
    },
  };
}

/** Account ids of `channels.bluebubbles`: the `accounts` keys, plus `default` for a
 *  channel-level server. */
export function listBlueBubblesAccounts(channelConfig: Record<string, unknown>): string[] {
  const accounts = channelConfig.accounts;
  const ids =
    accounts && typeof accounts === "object" && !Array.isArray(accounts)
      ? Object.keys(accounts)
      : [];
  if (ids.length === 0) return [DEFAULT_ACCOUNT_ID];
  return channelConfig.serverUrl !== undefined && !ids.includes(DEFAULT_ACCOUNT_ID)
    ? [DEFAULT_ACCOUNT_ID, ...ids]
    : ids;
}
