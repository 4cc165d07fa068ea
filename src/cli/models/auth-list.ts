// `pincer models auth list [--agent ID] [--provider P] [--json]`: the agent's auth profiles with
// type, provider, expiry, health (cooldown/disabled) and their place in the order; never a secret.
import { asCredential, normalizeProviderId, readAuthStore } from "../../runtime/models/index.js";
import type { InputOf } from "../command.js";
import {
  type CliContext,
  CliError,
  displayPath,
  printJson,
  printLine,
} from "../command-context.js";
import { openAuthAgent } from "./auth-common.js";
import type { authListOptions } from "./commands.js";

/** One profile as `auth list` shows it. */
export interface AuthProfileRow {
  profileId: string;
  provider: string;
  type: string;
  expires?: number;
  email?: string;
  accountId?: string;
  state: "ok" | "expired" | "refresh-due" | "cooldown" | "disabled" | "invalid";
  until?: number;
  /** 1-based position in the explicit order, when the provider has one. */
  orderPosition?: number;
  outsideOrder?: boolean;
}

function rowState(params: {
  row: AuthProfileRow;
  stats: Record<string, unknown> | undefined;
  now: number;
}) {
  const { row, stats, now } = params;
  const disabled = typeof stats?.disabledUntil === "number" ? stats.disabledUntil : 0;
  const cooldown = typeof stats?.cooldownUntil === "number" ? stats.cooldownUntil : 0;
  if (disabled > now) return { state: "disabled" as const, until: disabled };
  if (cooldown > now) return { state: "cooldown" as const, until: cooldown };
  if (row.expires !== undefined && row.expires <= now) {
    return { state: row.type === "oauth" ? ("refresh-due" as const) : ("expired" as const) };
  }
  return { state: "ok" as const };
}

/** Lists one agent's profiles. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof authListOptions>,
): Promise<number> {
  const { loaded, agentId, agent } = await openAuthAgent(ctx, opts.agent);
  const read = readAuthStore(agent.agentDir);
  if (read.error) throw new CliError(read.error);
  const only = opts.provider ? normalizeProviderId(opts.provider) : undefined;
  const now = Date.now();
  const rows: AuthProfileRow[] = [];
  for (const [profileId, stored] of Object.entries(read.store.profiles)) {
    const provider =
      typeof stored?.provider === "string" ? normalizeProviderId(stored.provider) : "";
    if (only && provider !== only) continue;
    const credential = asCredential(stored);
    const row: AuthProfileRow = {
      profileId,
      provider,
      type: credential?.type ?? String(stored?.type ?? "?"),
      state: "invalid",
    };
    if (credential && credential.type !== "api_key" && credential.expires !== undefined)
      row.expires = credential.expires;
    if (credential?.email) row.email = credential.email;
    if (credential?.type === "oauth" && typeof credential.accountId === "string")
      row.accountId = credential.accountId;
    if (credential)
      Object.assign(row, rowState({ row, stats: read.store.usageStats?.[profileId], now }));
    const order = read.store.order?.[provider] ?? loaded.config.auth?.order?.[provider];
    if (order) {
      const index = order.indexOf(profileId);
      if (index >= 0) row.orderPosition = index + 1;
      else row.outsideOrder = true;
    }
    rows.push(row);
  }
  if (opts.json) {
    printJson(ctx, { agentId, path: read.path, profiles: rows });
    return 0;
  }
  ctx.stderr(`agent ${agentId}: ${displayPath(read.path, loaded.paths.home)}\n`);
  if (!rows.length) printLine(ctx, "(no auth profiles)");
  for (const row of rows) {
    const bits = [row.type, row.state];
    if (row.until) bits.push(`until ${new Date(row.until).toISOString()}`);
    if (row.expires !== undefined) bits.push(`expires ${new Date(row.expires).toISOString()}`);
    if (row.email) bits.push(row.email);
    if (row.orderPosition) bits.push(`order #${row.orderPosition}`);
    if (row.outsideOrder) bits.push("not in order (unused)");
    printLine(ctx, `${row.profileId}  ${bits.join("  ")}`);
  }
  return 0;
}
