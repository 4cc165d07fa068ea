// `pincer pairing list [channel] [--channel C] [--account A] [--json]` (OpenClaw's shapes): pending DM
// pairing requests from the state dir's credentials files, or PostgreSQL with cluster.store (the same
// store the gateway reads). Without a channel every channel's requests are listed.
import { normalizeAccountId } from "../../routing/ids.js";
import { checkChannelKnown } from "../channels/ids.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import type { listOptions } from "./commands.js";
import { channelArgument, knownChannelIds, openCliPairing } from "./resolve.js";

/** Lists pending requests, newest last. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof listOptions>,
): Promise<number> {
  const channel = channelArgument(args[0], opts.channel);
  const account = opts.account?.trim() ? normalizeAccountId(opts.account) : undefined;
  const { loaded, store, done } = await openCliPairing(ctx);
  let requests: ReturnType<typeof store.list>;
  try {
    checkChannelKnown(channel, knownChannelIds({ store, configChannels: loaded.config.channels }));
    requests = store
      .list(channel)
      .filter((request) => account === undefined || request.meta.accountId === account);
  } finally {
    await done();
  }
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
