// The settings one iMessage (imsg) account runs with (OpenClaw's keys): the `imsg` binary
// (`cliPath`, default `imsg` on PATH), the Messages database (`dbPath`, imsg's default otherwise),
// the DM service (`auto`, `imessage` or `sms`), the region of numbers without a country code (US),
// whether inbound attachments reach the agent, and the media cap.
import { type ChannelAccountConfig, DEFAULT_ACCOUNT_ID, positiveNumber } from "../index.js";

const DEFAULT_MEDIA_MAX_MB = 16;
const DEFAULT_TIMEOUT_SECONDS = 30;
const SERVICES = ["auto", "imessage", "sms"] as const;

/** What a running account needs. */
export interface IMessageSettings {
  cliPath: string;
  dbPath?: string;
  service: (typeof SERVICES)[number];
  region: string;
  includeAttachments: boolean;
  mediaMaxBytes: number;
  timeoutMs: number;
}

/** Settings, or why the account cannot run (naming the key). */
export type IMessageSettingsResult =
  | { ok: true; settings: IMessageSettings }
  | { ok: false; error: string };

function where(accountId: string | undefined, key: string): string {
  return accountId === undefined || accountId === DEFAULT_ACCOUNT_ID
    ? `channels.imessage.${key}`
    : `channels.imessage.accounts.${accountId}.${key}`;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Resolves an account's settings from its merged config; pure. */
export function resolveIMessageSettings(params: {
  config: ChannelAccountConfig;
  accountId?: string;
}): IMessageSettingsResult {
  const { config, accountId } = params;
  const service = text(config.service) ?? "auto";
  if (!(SERVICES as readonly string[]).includes(service))
    return {
      ok: false,
      error: `imessage: ${where(accountId, "service")} "${service}" is not one of ${SERVICES.join(", ")}`,
    };
  const dbPath = text(config.dbPath);
  return {
    ok: true,
    settings: {
      cliPath: text(config.cliPath) ?? "imsg",
      ...(dbPath ? { dbPath } : {}),
      service: service as IMessageSettings["service"],
      region: text(config.region) ?? "US",
      includeAttachments: config.includeAttachments !== false,
      mediaMaxBytes: positiveNumber(config.mediaMaxMb, DEFAULT_MEDIA_MAX_MB) * 1024 * 1024,
      timeoutMs: positiveNumber(config.timeoutSeconds, DEFAULT_TIMEOUT_SECONDS) * 1000,
    },
  };
}

/** Account ids of `channels.imessage`: the `accounts` keys, plus `default` for channel-level keys. */
export function listIMessageAccounts(channelConfig: Record<string, unknown>): string[] {
  const accounts = channelConfig.accounts;
  const ids =
    accounts && typeof accounts === "object" && !Array.isArray(accounts)
      ? Object.keys(accounts)
      : [];
  if (ids.length === 0) return [DEFAULT_ACCOUNT_ID];
  return channelConfig.cliPath !== undefined && !ids.includes(DEFAULT_ACCOUNT_ID)
    ? [DEFAULT_ACCOUNT_ID, ...ids]
    : ids;
}
