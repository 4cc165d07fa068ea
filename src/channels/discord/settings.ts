// The settings one Discord account runs with, read from its resolved config: the bot token (inline,
// `${VAR}`, an env SecretRef, `tokenFile`, or DISCORD_BOT_TOKEN for the default account only), the
// REST base (the Gateway URL comes from its `GET /gateway/bot`), `allowBots`, the request timeout,
// the inbound media cap and the group-DM filter of the older `dm` block.
import { readFileSync } from "node:fs";
import {
  type ChannelAccountConfig,
  DEFAULT_ACCOUNT_ID,
  positiveNumber,
  readSecretInput,
} from "../index.js";

/** Env variable holding the default account's token, as OpenClaw reads it. */
export const DISCORD_TOKEN_ENV = "DISCORD_BOT_TOKEN";

/** Discord's public REST base; `apiRoot` replaces it for a proxy or a test server. */
export const DISCORD_PUBLIC_API_ROOT = "https://discord.com/api";

const DEFAULT_TIMEOUT_SECONDS = 15;
const DEFAULT_MEDIA_MAX_MB = 5;

/** What a running account needs from its config. */
export interface DiscordAccountSettings {
  token: string;
  /** Where the token came from, for logs (never the token itself). */
  tokenSource: "config" | "tokenFile" | "env";
  apiRoot: string;
  timeoutMs: number;
  /** Inbound images up to this size are downloaded into `data`. */
  mediaMaxBytes: number;
  allowBots: boolean;
  /** `dm.groupEnabled`: group DMs are handled at all. */
  groupDmEnabled: boolean;
  /** `dm.groupChannels`: the group DMs handled (ids or name slugs); absent: all. */
  groupDmChannels?: string[];
}

/** Settings, or why the account cannot run (naming the missing key). */
export type DiscordSettingsResult =
  | { ok: true; settings: DiscordAccountSettings }
  | { ok: false; error: string };

/** Inputs for {@link resolveDiscordSettings}. */
export interface ResolveDiscordSettingsParams {
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  /** Undefined when unknown (validation without an account id): the env token is then accepted. */
  accountId?: string;
}

type TokenResult =
  | { ok: true; token: string; source: DiscordAccountSettings["tokenSource"] }
  | { ok: false; error: string };

function inlineToken(
  value: unknown,
  env: Record<string, string | undefined>,
  key: string,
): TokenResult | undefined {
  const read = readSecretInput({ key, value, env });
  if (read.problem) return { ok: false, error: read.problem };
  if (read.value === undefined || read.source === undefined) return undefined;
  // A token pasted with its "Bot " header prefix still works.
  const token = read.source === "config" ? read.value.replace(/^Bot\s+/i, "") : read.value;
  return token ? { ok: true, token, source: read.source } : undefined;
}

function fileToken(path: unknown): TokenResult | undefined {
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

function resolveToken(params: ResolveDiscordSettingsParams): TokenResult {
  const { config, env, accountId } = params;
  const isDefault = accountId === undefined || accountId === DEFAULT_ACCOUNT_ID;
  const prefix = isDefault ? "channels.discord" : `channels.discord.accounts.${accountId}`;
  const fromConfig =
    inlineToken(config.token, env, `${prefix}.token`) ?? fileToken(config.tokenFile);
  if (fromConfig) return fromConfig;
  const envToken = env[DISCORD_TOKEN_ENV]?.trim();
  if (envToken && isDefault) return { ok: true, token: envToken, source: "env" };
  const where = isDefault
    ? `${prefix}.token, tokenFile or ${DISCORD_TOKEN_ENV}`
    : `${prefix}.token or tokenFile`;
  return { ok: false, error: `discord: no bot token; set ${where}` };
}

function groupDmSettings(
  dm: unknown,
): Pick<DiscordAccountSettings, "groupDmEnabled" | "groupDmChannels"> {
  const block = (dm && typeof dm === "object" ? dm : {}) as Record<string, unknown>;
  const list = Array.isArray(block.groupChannels)
    ? block.groupChannels.map((entry) => String(entry).trim()).filter(Boolean)
    : undefined;
  return {
    groupDmEnabled: block.groupEnabled === true,
    ...(list ? { groupDmChannels: list } : {}),
  };
}

/** Resolves an account's settings from its merged config; pure apart from reading `tokenFile`. */
export function resolveDiscordSettings(
  params: ResolveDiscordSettingsParams,
): DiscordSettingsResult {
  const token = resolveToken(params);
  if (!token.ok) return token;
  const { config } = params;
  const rawRoot = typeof config.apiRoot === "string" ? config.apiRoot.trim() : "";
  const apiRoot = (rawRoot || DISCORD_PUBLIC_API_ROOT).replace(/\/+$/, "");
  try {
    new URL(apiRoot);
  } catch {
    return { ok: false, error: `discord: apiRoot ${JSON.stringify(rawRoot)} is not a URL` };
  }
  return {
    ok: true,
    settings: {
      token: token.token,
      tokenSource: token.source,
      apiRoot,
      timeoutMs: positiveNumber(config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000,
      mediaMaxBytes: positiveNumber(config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      allowBots: config.allowBots === true,
      ...groupDmSettings(config.dm),
    },
  };
}

/** Account ids of `channels.discord`: the `accounts` keys, plus `default` for channel-level credentials. */
export function listDiscordAccounts(channelConfig: Record<string, unknown>): string[] {
  const accounts = channelConfig.accounts;
  const ids =
    accounts && typeof accounts === "object" && !Array.isArray(accounts)
      ? Object.keys(accounts)
      : [];
  const channelLevel = channelConfig.token !== undefined || channelConfig.tokenFile !== undefined;
  if (ids.length === 0) return [DEFAULT_ACCOUNT_ID];
  if (channelLevel && !ids.includes(DEFAULT_ACCOUNT_ID)) return [DEFAULT_ACCOUNT_ID, ...ids];
  return ids;
}
