// Configured channels Pincer has no adapter for (imessage, matrix, ... today): nothing runs them, so
// `channels list`, `channels status` and the gateway's `channels.status` show them as "no adapter"
// with their configured account names, never as enabled or merely "not running".
import type { OpenClawConfig } from "../protocol/config/index.js";
import {
  channelSection,
  configuredChannelIds,
  defaultAccountIds,
  isAccountEnabled,
} from "./account-config.js";
import type { AccountStatusSnapshot } from "./account-status.js";
import type { ChannelsStatus } from "./host-status.js";

/** The state word shown for an account of a channel without an adapter. */
export const NO_ADAPTER_STATE = "no adapter (not supported by Pincer yet)";

/** A configured channel without an adapter and the account ids the config gives it. */
export interface AdapterlessChannel {
  channel: string;
  accounts: Array<{ accountId: string; enabled: boolean }>;
}

/** Enabled channels of `cfg` for which `hasAdapter` is false, with their account ids. */
export function adapterlessChannels(
  cfg: OpenClawConfig,
  hasAdapter: (channelId: string) => boolean,
): AdapterlessChannel[] {
  return configuredChannelIds(cfg)
    .filter((channel) => !hasAdapter(channel))
    .map((channel) => {
      const section = channelSection(cfg, channel);
      const accounts = defaultAccountIds(section).map((accountId) => ({
        accountId,
        enabled: isAccountEnabled(section, accountId),
      }));
      return { channel, accounts };
    });
}

function noAdapterStatus(
  channel: string,
  account: AdapterlessChannel["accounts"][number],
): AccountStatusSnapshot {
  return {
    accountId: account.accountId,
    enabled: account.enabled,
    configured: false,
    running: false,
    connected: false,
    adapter: false,
    restarts: 0,
    pendingDeliveries: 0,
    queuedDeliveries: 0,
    failedDeliveries: 0,
    uncertainDeliveries: 0,
    lastError: `not supported by Pincer yet: no adapter for channel "${channel}"`,
  };
}

/** `status` with every adapter-less channel of `cfg` added (one entry per configured account). */
export function withAdapterlessChannels(
  status: ChannelsStatus,
  params: { cfg: OpenClawConfig; hasAdapter: (channelId: string) => boolean },
): ChannelsStatus {
  const missing = adapterlessChannels(params.cfg, params.hasAdapter).filter(
    (entry) => status.channelAccounts[entry.channel] === undefined,
  );
  if (missing.length === 0) return status;
  const out: ChannelsStatus = {
    ...status,
    channelOrder: [...status.channelOrder],
    channelLabels: { ...status.channelLabels },
    channels: { ...status.channels },
    channelAccounts: { ...status.channelAccounts },
  };
  for (const { channel, accounts } of missing) {
    out.channelOrder.push(channel);
    out.channelLabels[channel] = channel;
    out.channels[channel] = {
      configured: false,
      running: false,
      accounts: accounts.length,
      adapter: false,
    };
    out.channelAccounts[channel] = accounts.map((account) => noAdapterStatus(channel, account));
  }
  return out;
}

/** One channel as `pincer status` shows it: whether Pincer can run it, and its account ids. */
export interface ChannelSummary {
  adapter: boolean;
  accountIds: string[];
  /** From a live gateway only: whether any account runs. */
  running?: boolean;
}

/** The channels of a gateway's `channels.status`, each with its account ids (`pincer status`). */
export function summarizeChannelsStatus(
  status: Partial<Pick<ChannelsStatus, "channels" | "channelAccounts">>,
): Record<string, ChannelSummary> {
  const out: Record<string, ChannelSummary> = {};
  for (const [channel, entry] of Object.entries(status.channels ?? {})) {
    const accounts = status.channelAccounts?.[channel] ?? [];
    out[channel] = {
      adapter: entry?.adapter !== false,
      accountIds: accounts
        .filter((account) => account.enabled !== false)
        .map((account) => account.accountId),
      running: entry?.running === true,
    };
  }
  return out;
}

/** The enabled channels of `cfg` with their account ids, when no gateway is there to ask. */
export function summarizeConfiguredChannels(
  cfg: OpenClawConfig,
  hasAdapter: (channelId: string) => boolean,
): Record<string, ChannelSummary> {
  const out: Record<string, ChannelSummary> = {};
  for (const channel of configuredChannelIds(cfg)) {
    const section = channelSection(cfg, channel);
    const accountIds = defaultAccountIds(section).filter((id) => isAccountEnabled(section, id));
    out[channel] = { adapter: hasAdapter(channel), accountIds };
  }
  return out;
}
