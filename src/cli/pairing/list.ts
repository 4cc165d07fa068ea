// `pincer pairing list [channel] [--channel C] [--account A] [--json]` (OpenClaw's shapes): pending DM
// pairing requests from the state dir's credentials files (the same store the gateway reads). Without a
// channel every channel's requests are listed.
import { createPairingStore } from "../../channels/pairing/pairing-store.js";
import { normalizeAccountId } from "../../routing/ids.js";
import { checkChannelKnown } from "../channels/ids.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { listOptions } from "./commands.js";
import { channelArgument, knownChannelIds } from "./resolve.js";

/** Lists pending requests, newest last. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof listOptions>,
): Promise<number> {
  const channel = channelArgument(args[0], opts.channel);
  const account = opts.account?.trim() ? normalizeAccountId(opts.account) : undefined;
  const loaded = loadForCli(ctx, { requireValid: false });
  const store = createPairingStore({ stateDir: loaded.paths.stateDir });
  checkChannelKnown(channel, knownChannelIds({ store, configChannels: loaded.config.channels }));
  const requests = store
    .list(channel)
    .filter((request) => account === undefined || request.meta.accountId === account);
  if (opts.json) {
    printJson(ctx, {
      ...(channel ? { channel } : {}),
      ...(account ? { accountId: account } : {}),
      requests,
    });
    return 0;
  }
  const s = style(ctx);
  printLine(ctx, s.bold(`Pending pairing requests (${requests.length})`));
  if (requests.length === 0) printLine(ctx, s.dim("  none"));
  for (const request of requests) {
    const who = [request.meta.name, request.meta.username && `@${request.meta.username}`]
      .filter(Boolean)
      .join(" ");
    printLine(
      ctx,
      `  ${request.channel}  ${request.code}  account ${request.meta.accountId}  sender ${request.id}${who ? ` (${who})` : ""}  since ${request.createdAt}`,
    );
  }
  if (requests.length > 0)
    printLine(ctx, s.dim("  approve with: pincer pairing approve <code> [--notify]"));
  return 0;
}
