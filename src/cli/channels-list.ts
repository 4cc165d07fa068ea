// `pincer channels list [--json]`: channels and accounts as the config declares them (enabled,
// which credential keys are set; never the secrets themselves).
import {
  channelSection,
  configuredChannelIds,
  defaultAccountIds,
  isAccountEnabled,
  resolveAccountConfig,
} from "../channels/account-config.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { type CliContext, printJson, printLine, style } from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

const CREDENTIAL_KEYS = [
  "botToken",
  "tokenFile",
  "token",
  "appToken",
  "accessToken",
  "password",
  "apiKey",
];

/** One configured account, as listed. */
export interface ConfiguredAccountRow {
  channel: string;
  accountId: string;
  enabled: boolean;
  credentials: string[];
  dmPolicy: string;
  groupPolicy: string;
}

/** The accounts the config declares. */
export function configuredAccounts(cfg: OpenClawConfig): ConfiguredAccountRow[] {
  return configuredChannelIds(cfg).flatMap((channel) => {
    const section = channelSection(cfg, channel);
    return defaultAccountIds(section).map((accountId) => {
      const config = resolveAccountConfig(section, accountId);
      return {
        channel,
        accountId,
        enabled: isAccountEnabled(section, accountId),
        credentials: CREDENTIAL_KEYS.filter((key) => config[key] !== undefined),
        dmPolicy: typeof config.dmPolicy === "string" ? config.dmPolicy : "pairing",
        groupPolicy: typeof config.groupPolicy === "string" ? config.groupPolicy : "allowlist",
      };
    });
  });
}

/** Prints the configured accounts. */
export async function run(
  ctx: CliContext,
  { opts }: CommandInput<{ json?: boolean }>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: false });
  const rows = configuredAccounts(loaded.config);
  if (opts.json) {
    printJson(ctx, { channels: rows });
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
    const state = row.enabled ? s.green("enabled") : s.yellow("disabled");
    const creds = row.credentials.length ? row.credentials.join(",") : s.yellow("no credentials");
    printLine(
      ctx,
      `${row.channel}/${row.accountId}  ${state}  ${creds}  dm:${row.dmPolicy}  groups:${row.groupPolicy}`,
    );
  }
  return 0;
}
