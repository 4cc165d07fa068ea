// The settings one Telegram account runs with, read from its resolved config: the bot token (inline,
// `${VAR}`, an env SecretRef, `tokenFile`, or TELEGRAM_BOT_TOKEN for the default account), the Bot API
// root (self-hosted servers), the media cap and the request timeout.
import { readFileSync } from "node:fs";
import { type ChannelAccountConfig, substituteEnvInString } from "../index.js";

/** Account id used when the token sits at the channel level (and the only one TELEGRAM_BOT_TOKEN serves). */
export const TELEGRAM_DEFAULT_ACCOUNT = "default";

/** Env variable holding the default account's token, as OpenClaw reads it. */
export const TELEGRAM_TOKEN_ENV = "TELEGRAM_BOT_TOKEN";

/** Telegram's public Bot API; `apiRoot` replaces it for a self-hosted server. */
export const TELEGRAM_PUBLIC_API_ROOT = "https://api.telegram.org";

const DEFAULT_MEDIA_MAX_MB = 5;
const DEFAULT_TIMEOUT_SECONDS = 60;

/** What a running account needs from its config. */
export interface TelegramAccountSettings {
  token: string;
  /** Where the token came from, for logs (never the token itself). */
  tokenSource: "config" | "tokenFile" | "env";
  apiRoot: string;
  /** Inbound photos up to this size are downloaded into `data`. */
  mediaMaxBytes: number;
  /** Timeout of one Bot API request other than the long poll. */
  timeoutSeconds: number;
}

/** Settings, or why the account cannot run (naming the missing key). */
export type TelegramSettingsResult =
  | { ok: true; settings: TelegramAccountSettings }
  | { ok: false; error: string };

/** Inputs for {@link resolveTelegramSettings}. */
export interface ResolveTelegramSettingsParams {
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  /** Undefined when unknown (validation without an account id): the env token is then accepted. */
  accountId?: string;
}

type TokenResult = { ok: true; token: string; source: TelegramAccountSettings["tokenSource"] };

function inlineToken(
  value: unknown,
  env: Record<string, string | undefined>,
): TokenResult | { ok: false; error: string } | undefined {
  if (typeof value === "string") {
    const { text, missing } = substituteEnvInString(value, env);
    if (missing.length > 0) return { ok: false, error: `botToken: ${missing[0]} is not set` };
    const token = text.trim();
    return token ? { ok: true, token, source: "config" } : undefined;
  }
  if (value && typeof value === "object") {
    const ref = value as { source?: unknown; id?: unknown };
    if (ref.source !== "env" || typeof ref.id !== "string") {
      return {
        ok: false,
        error: `botToken: SecretRef source "${String(ref.source)}" is not supported (use env)`,
      };
    }
    const token = env[ref.id]?.trim();
    return token
      ? { ok: true, token, source: "env" }
      : { ok: false, error: `botToken: environment variable ${ref.id} is not set` };
  }
  return undefined;
}

function fileToken(path: unknown): TokenResult | { ok: false; error: string } | undefined {
  if (typeof path !== "string" || path.trim() === "") return undefined;
  try {
    const token = readFileSync(path.trim(), "utf8").trim();
    return token
      ? { ok: true, token, source: "tokenFile" }
      : { ok: false, error: `tokenFile ${path} is empty` };
  } catch (err) {
    return { ok: false, error: `tokenFile ${path} cannot be read: ${(err as Error).message}` };
  }
}

function resolveToken(params: ResolveTelegramSettingsParams) {
  const { config, env, accountId } = params;
  const fromConfig = inlineToken(config.botToken, env) ?? fileToken(config.tokenFile);
  if (fromConfig) return fromConfig;
  const envToken = env[TELEGRAM_TOKEN_ENV]?.trim();
  const envAllowed = accountId === undefined || accountId === TELEGRAM_DEFAULT_ACCOUNT;
  if (envToken && envAllowed) return { ok: true as const, token: envToken, source: "env" as const };
  const where =
    accountId === undefined || accountId === TELEGRAM_DEFAULT_ACCOUNT
      ? `channels.telegram.botToken, tokenFile or ${TELEGRAM_TOKEN_ENV}`
      : `channels.telegram.accounts.${accountId}.botToken or tokenFile`;
  return { ok: false as const, error: `telegram: no bot token; set ${where}` };
}

function positiveNumber(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Resolves an account's settings from its merged config; pure apart from reading `tokenFile`. */
export function resolveTelegramSettings(
  params: ResolveTelegramSettingsParams,
): TelegramSettingsResult {
  const token = resolveToken(params);
  if (!token.ok) return token;
  const rawRoot = typeof params.config.apiRoot === "string" ? params.config.apiRoot.trim() : "";
  const apiRoot = (rawRoot || TELEGRAM_PUBLIC_API_ROOT).replace(/\/+$/, "");
  return {
    ok: true,
    settings: {
      token: token.token,
      tokenSource: token.source,
      apiRoot,
      mediaMaxBytes: positiveNumber(params.config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      timeoutSeconds: positiveNumber(params.config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS),
    },
  };
}

/** Account ids of `channels.telegram`: the `accounts` keys, plus `default` for channel-level credentials. */
export function listTelegramAccounts(channelConfig: Record<string, unknown>): string[] {
  const accounts = channelConfig.accounts;
  const ids =
    accounts && typeof accounts === "object" && !Array.isArray(accounts)
      ? Object.keys(accounts)
      : [];
  const channelLevel =
    channelConfig.botToken !== undefined || channelConfig.tokenFile !== undefined;
  if (ids.length === 0) return [TELEGRAM_DEFAULT_ACCOUNT];
  if (channelLevel && !ids.includes(TELEGRAM_DEFAULT_ACCOUNT))
    return [TELEGRAM_DEFAULT_ACCOUNT, ...ids];
  return ids;
}
