// The `channels.status` payload of the host: per channel its label and whether it is configured and
// running, per account its status snapshot (with the delivery queue's counts), and the queue's
// totals over every account (those gone from the config included).
import { type AccountStatusSnapshot, deliveryStatus, totalDeliveries } from "./account-status.js";
import type { DeliveryCounts, DeliveryEntry } from "./delivery/delivery-entries.js";
import type { ChannelAccountRuntime } from "./types.js";

/** `channels.status` payload. */
export interface ChannelsStatus {
  ts: number;
  channelOrder: string[];
  channelLabels: Record<string, string>;
  /** `adapter: false`: configured, but Pincer has no adapter for the channel (see adapterless.ts). */
  channels: Record<
    string,
    { configured: boolean; running: boolean; accounts: number; adapter?: false }
  >;
  channelAccounts: Record<string, AccountStatusSnapshot[]>;
  /** Parts in the delivery queue: waiting to be sent, dead-lettered, of unknown fate (all accounts). */
  deliveries: DeliveryCounts;
}

/** What the status needs of one account slot. */
export interface StatusSlot {
  channel: string;
  accountId: string;
  status: AccountStatusSnapshot;
  runtime?: Pick<ChannelAccountRuntime, "probe">;
}

/** Inputs of {@link buildChannelsStatus}. */
export interface ChannelsStatusParams {
  slots: Iterable<StatusSlot>;
  labelOf: (channel: string) => string | undefined;
  deliveries: {
    entries(): DeliveryEntry[];
    counts(channel: string, accountId: string): DeliveryCounts;
  };
  now: number;
  /** Ask every running account's platform who we are. */
  probe: boolean;
}

/** Builds the status snapshot. */
export async function buildChannelsStatus(params: ChannelsStatusParams): Promise<ChannelsStatus> {
  const result: ChannelsStatus = {
    ts: params.now,
    channelOrder: [],
    channelLabels: {},
    channels: {},
    channelAccounts: {},
    deliveries: totalDeliveries(params.deliveries.entries()),
  };
  for (const slot of params.slots) {
    if (!result.channelAccounts[slot.channel]) {
      result.channelOrder.push(slot.channel);
      result.channelLabels[slot.channel] = params.labelOf(slot.channel) ?? slot.channel;
      result.channelAccounts[slot.channel] = [];
    }
    const snapshot: AccountStatusSnapshot = {
      ...slot.status,
      ...deliveryStatus(params.deliveries.counts(slot.channel, slot.accountId)),
    };
    if (params.probe && slot.runtime) snapshot.probe = await slot.runtime.probe();
    result.channelAccounts[slot.channel]!.push(snapshot);
  }
  for (const [channel, accounts] of Object.entries(result.channelAccounts)) {
    result.channels[channel] = {
      configured: accounts.some((a) => a.configured),
      running: accounts.some((a) => a.running),
      accounts: accounts.length,
    };
  }
  return result;
}
