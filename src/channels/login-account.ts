// Which account a login or logout acts on, the same for the CLI and the gateway: the one named
// (it must be configured, or be the implicit `default` of a channel without an accounts map), else
// the channel's `defaultAccount`, else `default`, else the only one; several and none named is an
// error naming them (linking the wrong number is worse than asking).
import type { OpenClawConfig } from "../protocol/config/index.js";
import { DEFAULT_ACCOUNT_ID } from "../routing/index.js";
import { channelSection, resolveAccountConfig } from "./account-config.js";
import type { ChannelAccountConfig, ChannelAdapter } from "./types.js";

/** The account a login acts on: its id, its resolved settings, and whether the config has it. */
export interface LoginAccountChoice {
  accountId: string;
  config: ChannelAccountConfig;
  /** False when `channels.<id>` is absent: linking works, but no gateway starts the account. */
  configured: boolean;
}

/** Resolves the account of a login or logout; an error naming the choices when it cannot. */
export function resolveLoginAccount(params: {
  cfg: OpenClawConfig;
  adapter: Pick<ChannelAdapter, "id" | "listAccounts">;
  accountId?: string | undefined;
}): { ok: true; account: LoginAccountChoice } | { ok: false; error: string } {
  const { adapter } = params;
  const channels = params.cfg.channels as Record<string, unknown> | undefined;
  const configured = channels?.[adapter.id] !== undefined;
  const section = channelSection(params.cfg, adapter.id);
  const known = adapter.listAccounts(section);
  const requested = params.accountId?.trim();
  const named = (list: string[]) => list.join(", ");
  let accountId: string;
  if (requested) {
    if (!known.includes(requested)) {
      return {
        ok: false,
        error: `account "${requested}" is not configured for ${adapter.id} (accounts: ${named(known)}); add channels.${adapter.id}.accounts.${requested} first`,
      };
    }
    accountId = requested;
  } else {
    const preferred = section.defaultAccount;
    if (typeof preferred === "string" && known.includes(preferred)) accountId = preferred;
    else if (known.includes(DEFAULT_ACCOUNT_ID)) accountId = DEFAULT_ACCOUNT_ID;
    else if (known.length === 1 && known[0]) accountId = known[0];
    else {
      return {
        ok: false,
        error: `${adapter.id} has several accounts (${named(known)}): name one with --account`,
      };
    }
  }
  return {
    ok: true,
    account: { accountId, config: resolveAccountConfig(section, accountId), configured },
  };
}
