// `pincer channels logout --channel C [--account ID]`: unlinks an account (WhatsApp is told, so the
// phone's "Linked devices" entry goes away, when its session can be opened) and removes its auth dir;
// nothing else in the state dir is touched. Through the running gateway (`channels.logout`: it stops
// the account's session first) when one answers, else here under the account's auth-dir lock.
import { builtinChannelLoaders } from "../../channels/builtin.js";
import type { LogoutOutcome } from "../../channels/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import { requestFailure } from "../gateway-client-options.js";
import type { logoutOptions } from "./commands.js";
import {
  type ChannelLoginDeps,
  connectIfRunning,
  GATEWAY_LOGIN_CHANNEL,
  resolveLoginTarget,
} from "./login.js";

/** How long the gateway may take to unlink (it may wait for the session to open). */
const LOGOUT_MS = 30_000;

/** `channels logout` with the channels given (the command's `run` passes the built-in ones). */
export async function runLogout(
  ctx: CliContext,
  { opts }: InputOf<typeof logoutOptions>,
  deps: ChannelLoginDeps,
): Promise<number> {
  const { adapter, login, account, target } = await resolveLoginTarget(ctx, opts, deps);
  const client =
    adapter.id === GATEWAY_LOGIN_CHANNEL ? await connectIfRunning(ctx, target) : undefined;
  let outcome: LogoutOutcome;
  if (client) {
    try {
      outcome = await client.request<LogoutOutcome>(
        "channels.logout",
        { channel: adapter.id, accountId: account.accountId },
        { timeoutMs: LOGOUT_MS + target.timeoutMs },
      );
    } catch (err) {
      throw requestFailure(err, "channels.logout");
    } finally {
      await client.close();
    }
  } else {
    outcome = await login.logout(account);
  }
  if (opts.json) printJson(ctx, { channel: adapter.id, accountId: account.accountId, ...outcome });
  if (outcome.state === "refused") throw new CliError(`logout refused: ${outcome.message}`);
  if (!opts.json) printLine(ctx, outcome.message);
  return 0;
}

/** Unlinks an account (see the file comment). */
export function run(ctx: CliContext, input: InputOf<typeof logoutOptions>): Promise<number> {
  return runLogout(ctx, input, { loaders: builtinChannelLoaders() });
}
