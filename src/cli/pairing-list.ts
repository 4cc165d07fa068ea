// `pincer pairing list [--channel C] [--json]`: pending DM pairing requests from the state dir's
// credentials files (the same store the gateway reads).
import { createPairingStore } from "../channels/pairing/pairing-store.js";
import { type CliContext, printJson, printLine, style } from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

/** Lists pending requests, newest last. */
export async function run(
  ctx: CliContext,
  { opts }: CommandInput<{ channel?: string; json?: boolean }>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: false });
  const store = createPairingStore({ stateDir: loaded.paths.stateDir });
  const requests = store.list(opts.channel);
  if (opts.json) {
    printJson(ctx, { requests });
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
    printLine(ctx, s.dim("  approve with: pincer pairing approve <channel> <code>"));
  return 0;
}
