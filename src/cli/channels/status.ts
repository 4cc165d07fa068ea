// `pincer channels status [--probe] [--json]`: live per-account status from the running gateway's
// `channels.status`; when the gateway is not running, the configured accounts and "gateway not running".
import type { AccountStatusSnapshot } from "../../channels/account-status.js";
import { NO_ADAPTER_STATE } from "../../channels/adapterless.js";
import type { ChannelsStatus } from "../../channels/host.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine, style } from "../command-context.js";
import { connectForCli, requestFailure, resolveGatewayTarget } from "../gateway-client-options.js";
import type { statusOptions } from "./commands.js";
import { accountState, configuredAccounts } from "./list.js";

function accountLine(ctx: CliContext, channel: string, account: AccountStatusSnapshot): string {
  const s = style(ctx);
  // A channel without an adapter: say so (its lastError only repeats it).
  if (account.adapter === false)
    return `${channel}/${account.accountId}  ${s.yellow(NO_ADAPTER_STATE)}${account.enabled ? "" : ", disabled"}`;
  const state = !account.enabled
    ? s.dim("disabled")
    : account.connected
      ? s.green("connected")
      : account.running
        ? s.yellow("running, not connected")
        : s.red("not running");
  const parts = [`${channel}/${account.accountId}`, state];
  if (account.identity) parts.push(`as ${account.identity.username ?? account.identity.id}`);
  if (account.lastInboundAt) parts.push(`in ${new Date(account.lastInboundAt).toISOString()}`);
  if (account.lastOutboundAt) parts.push(`out ${new Date(account.lastOutboundAt).toISOString()}`);
  if (account.pendingDeliveries) parts.push(`${account.pendingDeliveries} pending`);
  if (account.queuedDeliveries)
    parts.push(s.yellow(`${account.queuedDeliveries} queued for retry`));
  if (account.failedDeliveries) parts.push(s.red(`${account.failedDeliveries} failed`));
  if (account.uncertainDeliveries)
    parts.push(s.red(`${account.uncertainDeliveries} uncertain (may not have arrived)`));
  if (account.probe) parts.push(`probe ${JSON.stringify(account.probe)}`);
  if (account.restarts) parts.push(`restarted ${account.restarts}x`);
  if (account.nextRestartAt)
    parts.push(`next retry ${new Date(account.nextRestartAt).toISOString()}`);
  if (account.lastError) parts.push(s.red(`error: ${account.lastError}`));
  return parts.join("  ");
}

/** Prints the status (exit 0 even when the gateway is down: the config view is still useful). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof statusOptions>,
): Promise<number> {
  const target = resolveGatewayTarget(ctx, opts);
  let status: ChannelsStatus | undefined;
  let down: string | undefined;
  try {
    const client = await connectForCli(ctx, target);
    try {
      status = await client.request<ChannelsStatus>("channels.status", {
        probe: opts.probe === true,
      });
    } catch (err) {
      throw requestFailure(err, "channels.status");
    } finally {
      await client.close();
    }
  } catch (err) {
    if (!(err instanceof CliError) || !err.message.startsWith("gateway not reachable")) throw err;
    down = err.message;
  }
  if (!status) {
    const accounts = configuredAccounts({
      cfg: target.loaded.config,
      env: target.loaded.env,
      stateDir: target.loaded.paths.stateDir,
    });
    if (opts.json) {
      printJson(ctx, { gateway: "not running", error: down, accounts });
      return 0;
    }
    printLine(ctx, style(ctx).yellow(`gateway not running (${target.url}); configured accounts:`));
    for (const a of accounts)
      printLine(ctx, `${a.channel}/${a.accountId}  ${accountState(ctx, a)}`);
    if (accounts.length === 0) printLine(ctx, "  none");
    return 0;
  }
  if (opts.json) {
    printJson(ctx, status);
    return 0;
  }
  if (status.channelOrder.length === 0) printLine(ctx, "no channels running");
  for (const channel of status.channelOrder) {
    for (const account of status.channelAccounts[channel] ?? [])
      printLine(ctx, accountLine(ctx, channel, account));
  }
  const { failed = 0, uncertain = 0 } = status.deliveries ?? {};
  if (failed + uncertain > 0)
    printLine(
      ctx,
      style(ctx).red(
        `deliveries: ${failed} failed, ${uncertain} uncertain; see: pincer channels failures`,
      ),
    );
  return 0;
}
