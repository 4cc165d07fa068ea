// Which accounts the host should run for a config: every account of every configured channel whose
// adapter is registered and loads. An adapter that fails to load is logged and its accounts skipped,
// so one broken channel never keeps the others from starting.
import type { OpenClawConfig } from "../protocol/config/index.js";
import { accountFingerprint, channelSection, configuredChannelIds } from "./account-config.js";
import type { ChannelRegistry } from "./registry.js";
import type { ChannelAccountConfig, ChannelAdapter, Logger } from "./types.js";

/** One account the host should run, with the fingerprint of its config (a change restarts it). */
export interface DesiredAccount {
  adapter: ChannelAdapter;
  accountId: string;
  fingerprint: string;
}

/** Lists the accounts `cfg` asks for, loading each channel's adapter from the registry. */
export async function listDesiredAccounts(params: {
  cfg: OpenClawConfig;
  registry: ChannelRegistry;
  accountConfig: (channel: string, accountId: string) => ChannelAccountConfig;
  log: Logger;
}): Promise<DesiredAccount[]> {
  const { cfg, registry, accountConfig, log } = params;
  const out: DesiredAccount[] = [];
  for (const channel of configuredChannelIds(cfg)) {
    if (!registry.has(channel)) continue;
    let adapter: ChannelAdapter | undefined;
    try {
      adapter = await registry.load(channel);
    } catch (err) {
      log.error({ channel, error: String(err) }, "channel adapter failed to load");
    }
    if (!adapter) continue;
    for (const accountId of adapter.listAccounts(channelSection(cfg, channel))) {
      out.push({
        adapter,
        accountId,
        fingerprint: accountFingerprint(accountConfig(channel, accountId)),
      });
    }
  }
  return out;
}
