// The settings one Signal account runs with, read from its resolved config (OpenClaw's keys): the
// account's number, where its signal-cli HTTP daemon answers (`httpUrl`, else
// `http://<httpHost>:<httpPort>`), whether Pincer starts that daemon itself (`autoStart`, default
// on when `httpUrl` is unset; then `account` is required), and the inbound switches and media cap.
import { phoneDigits } from "../../lib/phone-number.js";
import { type ChannelAccountConfig, DEFAULT_ACCOUNT_ID, positiveNumber } from "../index.js";

/** OpenClaw's default daemon bind. */
export const SIGNAL_DEFAULT_HOST = "127.0.0.1";
/** OpenClaw's default daemon port. */
export const SIGNAL_DEFAULT_PORT = 8080;
/** Default wait for a started daemon's /api/v1/check. */
export const SIGNAL_DEFAULT_STARTUP_MS = 30_000;
/** OpenClaw's cap on `startupTimeoutMs`. */
const MAX_STARTUP_MS = 120_000;
const DEFAULT_MEDIA_MAX_MB = 8;
const DEFAULT_TIMEOUT_SECONDS = 30;

/** What a running Signal account needs. */
export interface SignalAccountSettings {
  /** The account's number (E.164), when configured: RPC `account`, self-mention detection. */
  account?: string;
  /** The daemon's base URL, no trailing slash. */
  baseUrl: string;
  /** Set when Pincer starts and supervises the daemon. */
  daemon?: { cliPath: string; host: string; port: number; startupTimeoutMs: number };
  ignoreAttachments: boolean;
  ignoreStories: boolean;
  sendReadReceipts: boolean;
  /** Inbound and outbound attachments up to this size. */
  mediaMaxBytes: number;
  /** Timeout of one RPC request. */
  timeoutMs: number;
}

/** Settings, or why the account cannot run (naming the key). */
export type SignalSettingsResult =
  | { ok: true; settings: SignalAccountSettings }
  | { ok: false; error: string };

function text(value: unknown): string | undefined {
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function where(accountId: string | undefined, key: string): string {
  return accountId === undefined || accountId === DEFAULT_ACCOUNT_ID
    ? `channels.signal.${key}`
    : `channels.signal.accounts.${accountId}.${key}`;
}

/** `+<digits>` of a number in any common spelling, or undefined. */
export function signalE164(raw: string): string | undefined {
  const digits = phoneDigits(raw);
  return digits === undefined ? undefined : `+${digits}`;
}

/** Resolves an account's settings from its merged config; pure. */
export function resolveSignalSettings(params: {
  config: ChannelAccountConfig;
  accountId?: string;
}): SignalSettingsResult {
  const { config, accountId } = params;
  const problems: string[] = [];
  const rawAccount = text(config.account);
  const account = rawAccount === undefined ? undefined : signalE164(rawAccount);
  if (rawAccount !== undefined && account === undefined)
    problems.push(`${where(accountId, "account")} "${rawAccount}" is not a phone number (E.164)`);
  const httpUrl = text(config.httpUrl);
  if (httpUrl !== undefined && !/^https?:\/\/[^/]/i.test(httpUrl))
    problems.push(`${where(accountId, "httpUrl")} "${httpUrl}" is not an http(s) URL`);
  const autoStart =
    typeof config.autoStart === "boolean" ? config.autoStart : httpUrl === undefined;
  const host = text(config.httpHost) ?? SIGNAL_DEFAULT_HOST;
  const port = config.httpPort === undefined ? SIGNAL_DEFAULT_PORT : Number(config.httpPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    problems.push(`${where(accountId, "httpPort")} must be a port number (1-65535)`);
  if (autoStart && account === undefined && rawAccount === undefined)
    problems.push(
      `signal: no account number; set ${where(accountId, "account")} (signal-cli is started with -a <account>), or httpUrl of a running daemon with autoStart false`,
    );
  if (problems.length > 0) return { ok: false, error: `signal: ${problems.join("; ")}` };
  const startupTimeoutMs = Math.min(
    positiveNumber(config.startupTimeoutMs, SIGNAL_DEFAULT_STARTUP_MS),
    MAX_STARTUP_MS,
  );
  const baseUrl = (httpUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`).replace(
    /\/+$/,
    "",
  );
  return {
    ok: true,
    settings: {
      ...(account ? { account } : {}),
      baseUrl,
      ...(autoStart
        ? {
            daemon: {
              cliPath: text(config.cliPath) ?? "signal-cli",
              host,
              port,
              startupTimeoutMs,
            },
          }
        : {}),
      ignoreAttachments: config.ignoreAttachments === true,
      ignoreStories: config.ignoreStories !== false,
      sendReadReceipts: config.sendReadReceipts === true,
      mediaMaxBytes: positiveNumber(config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      timeoutMs: positiveNumber(config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000,
    },
  };
}

/** Account ids of `channels.signal`: the `accounts` keys, plus `default` for a channel-level number
 *  or daemon URL. */
export function listSignalAccounts(channelConfig: Record<string, unknown>): string[] {
  const accounts = channelConfig.accounts;
  const ids =
    accounts && typeof accounts === "object" && !Array.isArray(accounts)
      ? Object.keys(accounts)
      : [];
  if (ids.length === 0) return [DEFAULT_ACCOUNT_ID];
  const channelLevel = channelConfig.account !== undefined || channelConfig.httpUrl !== undefined;
  return channelLevel && !ids.includes(DEFAULT_ACCOUNT_ID) ? [DEFAULT_ACCOUNT_ID, ...ids] : ids;
}
