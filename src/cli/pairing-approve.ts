// `pincer pairing approve <channel> <code> [--json]`: the sender joins the account's allowFrom
// store; a running gateway reads it on the sender's next message (no restart).
import { createPairingStore } from "../channels/pairing/pairing-store.js";
import { type CliContext, CliError, printJson, printLine } from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

/** Approves one code; an unknown or expired code exits 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<{ json?: boolean }>,
): Promise<number> {
  const [channel = "", code = ""] = args;
  const loaded = loadForCli(ctx, { requireValid: false });
  const approved = createPairingStore({ stateDir: loaded.paths.stateDir }).approve(channel, code);
  if (!approved)
    throw new CliError(`no pending pairing code ${code} for channel ${channel} (expired?)`);
  if (opts.json)
    printJson(ctx, {
      approved: true,
      channel,
      id: approved.id,
      accountId: approved.meta.accountId,
    });
  else
    printLine(
      ctx,
      `Approved ${channel} sender ${approved.id} (account ${approved.meta.accountId})`,
    );
  return 0;
}
