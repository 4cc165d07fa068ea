// Reading `channels.<id>` of openclaw.json: which channels and accounts are configured and enabled,
// and the resolved settings of one account (the channel's keys with the account's keys over them).
import type { OpenClawConfig } from "../protocol/config/index.js";
import { DEFAULT_ACCOUNT_ID } from "../routing/index.js";
import type { ChannelAccountConfig } from "./types.js";

/** Keys of `channels` that are not channels. */
const NON_CHANNEL_KEYS = new Set(["defaults", "modelByChannel"]);
/** Keys of a channel that describe the account set, not an account's settings. */
const ACCOUNT_SET_KEYS = new Set(["accounts", "defaultAccount"]);

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The raw `channels.<channelId>` object (empty when absent). */
export function channelSection(cfg: OpenClawConfig, channelId: string): Loose {
  const section = (cfg.channels as Loose | undefined)?.[channelId];
  return isObject(section) ? section : {};
}

/** Channel ids present in `channels` and not disabled (`enabled: false`). */
export function configuredChannelIds(cfg: OpenClawConfig): string[] {
  const channels = cfg.channels as Loose | undefined;
  if (!isObject(channels)) return [];
  return Object.keys(channels).filter(
    (id) => !NON_CHANNEL_KEYS.has(id) && isObject(channels[id]) && channels[id].enabled !== false,
  );
}

/** Account ids of a channel: the `accounts` map's keys, else `default`. Adapters may refine. */
export function defaultAccountIds(channelConfig: Loose): string[] {
  const accounts = channelConfig.accounts;
  if (isObject(accounts) && Object.keys(accounts).length > 0) return Object.keys(accounts);
  return [DEFAULT_ACCOUNT_ID];
}

/** One account's settings: channel keys (minus the account map) overlaid by `accounts.<id>`. */
export function resolveAccountConfig(
  channelConfig: Loose,
  accountId: string,
): ChannelAccountConfig {
  const base: Loose = {};
  for (const [key, value] of Object.entries(channelConfig)) {
    if (!ACCOUNT_SET_KEYS.has(key)) base[key] = value;
  }
  const accounts = channelConfig.accounts;
  const own = isObject(accounts) && isObject(accounts[accountId]) ? accounts[accountId] : {};
  return { ...base, ...own };
}

/** Whether an account is enabled: neither the channel nor the account says `enabled: false`. */
export function isAccountEnabled(channelConfig: Loose, accountId: string): boolean {
  if (channelConfig.enabled === false) return false;
  return resolveAccountConfig(channelConfig, accountId).enabled !== false;
}

/** A stable fingerprint of an account's settings: a change means the account must restart. */
export function accountFingerprint(config: ChannelAccountConfig): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sorted(value[key])]),
    );
  };
  return JSON.stringify(sorted(config));
}
