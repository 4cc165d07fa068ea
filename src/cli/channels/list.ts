// `pincer channels list [--json]`: channels and accounts as the config declares them (enabled, or
// "no adapter" for a channel Pincer cannot run; which credentials are set and where they come from,
// never the secrets themselves). `--json` also carries OpenClaw's `chat` map and `auth[]` profiles.

import { listAgents } from "../../agents/roster.js";
import type { AccountAuthEntry } from "../../channels/account-auth.js";
import { describeAccountAuth } from "../../channels/account-auth.js";
import {
  channelSection,
  configuredChannelIds,
  defaultAccountIds,
  isAccountEnabled,
  resolveAccountConfig,
} from "../../channels/account-config.js";
import { NO_ADAPTER_STATE } from "../../channels/adapterless.js";
import { builtinChannelLoaders } from "../../channels/builtin.js";
import type { LoadedConfig } from "../../config/index.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { readAuthStore } from "../../runtime/models/auth-store.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { listOptions } from "./commands.js";

/** One configured account, as listed. */
export interface ConfiguredAccountRow {
  channel: string;
  accountId: string;
  enabled: boolean;
  /** False when Pincer has no adapter for the channel: nothing will run this account. */
  adapter: boolean;
  /** Configured credential keys (the names only). */
  credentials: string[];
  /** Each credential: key, source (config/env/file/exec) and whether it is present. */
  auth: AccountAuthEntry[];
  dmPolicy: string;
  groupPolicy: string;
}

/** Inputs of {@link configuredAccounts}. */
export interface ConfiguredAccountsParams {
  cfg: OpenClawConfig;
  env: Record<string, string | undefined>;
  /** The state dir (a WhatsApp Web account's default auth dir is under it). */
  stateDir?: string;
  /** Whether a channel has an adapter (default: the built-in adapters). */
  hasAdapter?: (channelId: string) => boolean;
}

/** The accounts the config declares. */
export function configuredAccounts(params: ConfiguredAccountsParams): ConfiguredAccountRow[] {
  const { cfg, env } = params;
  const builtin = builtinChannelLoaders();
  const hasAdapter = params.hasAdapter ?? ((id: string) => Object.hasOwn(builtin, id));
  return configuredChannelIds(cfg).flatMap((channel) => {
    const section = channelSection(cfg, channel);
    return defaultAccountIds(section).map((accountId) => {
      const config = resolveAccountConfig(section, accountId);
      const auth = describeAccountAuth({
        channel,
        accountId,
        config,
        env,
        ...(params.stateDir ? { stateDir: params.stateDir } : {}),
      });
      return {
        channel,
        accountId,
        enabled: isAccountEnabled(section, accountId),
        adapter: hasAdapter(channel),
        credentials: auth.filter((a) => config[a.key] !== undefined).map((a) => a.key),
        auth,
        dmPolicy: typeof config.dmPolicy === "string" ? config.dmPolicy : "pairing",
        groupPolicy: typeof config.groupPolicy === "string" ? config.groupPolicy : "allowlist",
      };
    });
  });
}

/** The state word of a row: "no adapter ..." before enabled/disabled. */
export function accountState(ctx: CliContext, row: ConfiguredAccountRow): string {
  const s = style(ctx);
  if (!row.adapter)
    return s.yellow(row.enabled ? NO_ADAPTER_STATE : `${NO_ADAPTER_STATE}, disabled`);
  return row.enabled ? s.green("enabled") : s.yellow("disabled");
}

/** OpenClaw's `auth[]`: the default agent's model auth profiles (id, provider, type; no secrets). */
function authProfiles(loaded: LoadedConfig<OpenClawConfig>) {
  const agent = listAgents(loaded.config, loaded.paths).find((a) => a.isDefault);
  if (!agent) return [];
  const { store } = readAuthStore(agent.agentDir);
  return Object.entries(store.profiles).map(([id, profile]) => ({
    id,
    provider: typeof profile.provider === "string" ? profile.provider : "",
    type: typeof profile.type === "string" ? profile.type : "",
    isExternal: false,
  }));
}

function credentialText(ctx: CliContext, row: ConfiguredAccountRow): string {
  const s = style(ctx);
  if (row.auth.length === 0) return s.yellow("no credentials");
  return row.auth
    .map((a) => {
      const from = a.source === "env" ? `env ${a.env}` : a.source === "file" ? "file" : a.source;
      const text = `${a.key}=${from}`;
      return a.present === false ? s.yellow(`${text} (missing)`) : text;
    })
    .join(",");
}

/** Prints the configured accounts. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: false });
  const rows = configuredAccounts({
    cfg: loaded.config,
    env: loaded.env,
    stateDir: loaded.paths.stateDir,
  });
  if (opts.json) {
    const chat: Record<string, string[]> = {};
    for (const row of rows) chat[row.channel] = [...(chat[row.channel] ?? []), row.accountId];
    printJson(ctx, { chat, auth: authProfiles(loaded), channels: rows });
    return 0;
  }
  const s = style(ctx);
  if (rows.length === 0) {
    printLine(
      ctx,
      s.dim(
        "no channels configured (add one: pincer channels add --channel telegram --token-stdin)",
      ),
    );
    return 0;
  }
  for (const row of rows) {
    printLine(
      ctx,
      `${row.channel}/${row.accountId}  ${accountState(ctx, row)}  ${credentialText(ctx, row)}  dm:${row.dmPolicy}  groups:${row.groupPolicy}`,
    );
  }
  return 0;
}
