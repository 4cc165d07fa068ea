// The settings one Slack account runs with, read from its resolved config: the mode (socket, the
// default, or http), the bot token (xoxb-), the app-level token (xapp-, socket mode) or the signing
// secret and webhook path (http mode), the Web API base, allowBots, replyToMode, the group-DM
// (mpim) keys of the `dm` block and the `thread` block (an account's replaces the channel's).
// Secrets may be inline, `${VAR}` or an env SecretRef; SLACK_BOT_TOKEN / SLACK_APP_TOKEN serve the
// default account only.
import {
  type ChannelAccountConfig,
  DEFAULT_ACCOUNT_ID,
  positiveNumber,
  readSecretInput,
  type ThreadSessionSettings,
} from "../index.js";

/** Slack's Web API; `apiUrl` replaces it (a proxy, or a fake in tests). */
export const SLACK_API_URL = "https://slack.com/api/";
/** Env variable of the default account's bot token, as OpenClaw reads it. */
export const SLACK_BOT_TOKEN_ENV = "SLACK_BOT_TOKEN";
/** Env variable of the default account's app-level token (socket mode), as OpenClaw reads it. */
export const SLACK_APP_TOKEN_ENV = "SLACK_APP_TOKEN";
/** Where Slack posts events in http mode unless `webhookPath` says otherwise (OpenClaw's default). */
export const DEFAULT_SLACK_WEBHOOK_PATH = "/slack/events";

/** Earlier thread messages a new thread session is given unless `thread.initialHistoryLimit` says
 *  otherwise (OpenClaw's default). */
export const DEFAULT_THREAD_INITIAL_HISTORY_LIMIT = 20;

const DEFAULT_MEDIA_MAX_MB = 20;
const DEFAULT_TIMEOUT_SECONDS = 30;

/** How replies to a message that was not in a thread go out (a thread's replies stay in it). */
export type SlackReplyToMode = "off" | "first" | "all";

/** What a running Slack account needs. */
export interface SlackAccountSettings {
  mode: "socket" | "http";
  botToken: string;
  /** Socket mode only. */
  appToken?: string;
  /** Http mode only. */
  signingSecret?: string;
  webhookPath: string;
  /** Web API base, ending in `/`. */
  apiUrl: string;
  allowBots: boolean;
  replyToMode: SlackReplyToMode;
  /** `dm.groupEnabled`: group DMs (mpim) are handled only when true. */
  groupDmEnabled: boolean;
  /** `dm.groupChannels`: when set, only these group DMs (id or name slug). */
  groupDmChannels?: string[];
  mediaMaxBytes: number;
  timeoutMs: number;
  /** `thread.*`: a thread reply's group context, a new thread session's history and parent copy. */
  thread: ThreadSessionSettings;
}

/** Settings, or why the account cannot run (naming every missing or bad key). */
export type SlackSettingsResult =
  | { ok: true; settings: SlackAccountSettings }
  | { ok: false; error: string };

function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

interface TokenSpec {
  key: "botToken" | "appToken" | "signingSecret";
  env?: string;
  prefix?: string;
}

function readToken(params: {
  spec: TokenSpec;
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  isDefault: boolean;
  where: string;
  problems: string[];
}): string | undefined {
  const { spec, config, env, isDefault, where, problems } = params;
  const read = readSecretInput({ key: spec.key, value: config[spec.key], env });
  if (read.problem) {
    problems.push(read.problem);
    return undefined;
  }
  const fromEnv = spec.env && isDefault ? env[spec.env]?.trim() : undefined;
  const value = read.value ?? (fromEnv || undefined);
  if (value === undefined) {
    const orEnv = spec.env && isDefault ? ` or ${spec.env}` : "";
    problems.push(`no ${spec.key}; set ${where}.${spec.key}${orEnv}`);
    return undefined;
  }
  if (spec.prefix && !value.startsWith(spec.prefix))
    problems.push(`${spec.key} must start with ${spec.prefix} (got a token of another kind)`);
  return value;
}

/** The `thread` block (OpenClaw's defaults: historyScope thread, initialHistoryLimit 20,
 *  inheritParent false); a bad value is a problem named with its key. */
function readThread(params: {
  value: unknown;
  where: string;
  problems: string[];
}): ThreadSessionSettings {
  const { where, problems } = params;
  const raw = objectOf(params.value);
  const scope = raw.historyScope ?? "thread";
  if (scope !== "thread" && scope !== "channel")
    problems.push(`${where}.thread.historyScope "${String(scope)}" is not thread or channel`);
  const limit = raw.initialHistoryLimit ?? DEFAULT_THREAD_INITIAL_HISTORY_LIMIT;
  const limitOk = typeof limit === "number" && Number.isInteger(limit) && limit >= 0;
  if (!limitOk)
    problems.push(`${where}.thread.initialHistoryLimit must be a whole number >= 0 (0: none)`);
  if (raw.inheritParent !== undefined && typeof raw.inheritParent !== "boolean")
    problems.push(`${where}.thread.inheritParent must be true or false`);
  return {
    historyScope: scope === "channel" ? "channel" : "thread",
    initialHistoryLimit: limitOk ? limit : DEFAULT_THREAD_INITIAL_HISTORY_LIMIT,
    inheritParent: raw.inheritParent === true,
  };
}

function readReplyToMode(value: unknown): SlackReplyToMode {
  return value === "first" || value === "all" ? value : "off";
}

/** Resolves an account's settings from its merged config; pure. Without an `accountId` (a check
 *  of the keys only) the env tokens of the default account are accepted. */
export function resolveSlackSettings(params: {
  config: ChannelAccountConfig;
  env: Record<string, string | undefined>;
  accountId?: string;
}): SlackSettingsResult {
  const { config, env } = params;
  const isDefault = params.accountId === undefined || params.accountId === DEFAULT_ACCOUNT_ID;
  const where =
    params.accountId === undefined || params.accountId === DEFAULT_ACCOUNT_ID
      ? "channels.slack"
      : `channels.slack.accounts.${params.accountId}`;
  const problems: string[] = [];
  const rawMode = config.mode ?? "socket";
  if (rawMode !== "socket" && rawMode !== "http")
    problems.push(`mode "${String(rawMode)}" is not socket or http`);
  const mode = rawMode === "http" ? "http" : "socket";
  const common = { config, env, isDefault, where, problems };
  const botToken = readToken({
    ...common,
    spec: { key: "botToken", env: SLACK_BOT_TOKEN_ENV, prefix: "xoxb-" },
  });
  const appToken =
    mode === "socket"
      ? readToken({
          ...common,
          spec: { key: "appToken", env: SLACK_APP_TOKEN_ENV, prefix: "xapp-" },
        })
      : undefined;
  const signingSecret =
    mode === "http" ? readToken({ ...common, spec: { key: "signingSecret" } }) : undefined;
  const rawPath = typeof config.webhookPath === "string" ? config.webhookPath.trim() : "";
  if (rawPath && !rawPath.startsWith("/"))
    problems.push(`webhookPath "${rawPath}" must start with /`);
  const rawUrl = typeof config.apiUrl === "string" ? config.apiUrl.trim() : "";
  if (rawUrl && !/^https?:\/\//.test(rawUrl))
    problems.push(`apiUrl "${rawUrl}" is not an http(s) URL`);
  const thread = readThread({ value: config.thread, where, problems });
  if (problems.length > 0 || botToken === undefined)
    return { ok: false, error: `slack (${mode} mode): ${problems.join("; ")}` };
  const dm = objectOf(config.dm);
  const groupChannels = Array.isArray(dm.groupChannels)
    ? dm.groupChannels.map((entry) => String(entry))
    : undefined;
  return {
    ok: true,
    settings: {
      mode,
      botToken,
      ...(appToken !== undefined ? { appToken } : {}),
      ...(signingSecret !== undefined ? { signingSecret } : {}),
      webhookPath: rawPath || DEFAULT_SLACK_WEBHOOK_PATH,
      apiUrl: rawUrl ? `${rawUrl.replace(/\/+$/, "")}/` : SLACK_API_URL,
      allowBots: config.allowBots === true,
      replyToMode: readReplyToMode(config.replyToMode),
      groupDmEnabled: dm.groupEnabled === true,
      ...(groupChannels ? { groupDmChannels: groupChannels } : {}),
      mediaMaxBytes: positiveNumber(config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      timeoutMs: positiveNumber(config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000,
      thread,
    },
  };
}

/** A clear error naming what is missing in an account's settings, or undefined. */
export function validateSlackAccount(
  config: ChannelAccountConfig,
  env: Record<string, string | undefined>,
): string | undefined {
  const result = resolveSlackSettings({ config, env });
  return result.ok ? undefined : result.error;
}
