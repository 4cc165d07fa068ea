// `pincer pairing reject <channel> <code> [--json]`: drops a pending pairing code.
import { createPairingStore } from "../channels/pairing/pairing-store.js";
import { type CliContext, CliError, printJson, printLine } from "./context.js";
import { loadForCli } from "./load.js";
import type { CommandInput } from "./program.js";

/** Rejects one code; an unknown or expired code exits 1. */
export async function run(
  ctx: CliContext,
  { args, opts }: CommandInput<{ json?: boolean }>,
): Promise<number> {
  const [channel = "", code = ""] = args;
  const loaded = loadForCli(ctx, { requireValid: false });
  const dropped = createPairingStore({ stateDir: loaded.paths.stateDir }).reject(channel, code);
  if (!dropped)
    throw new CliError(`no pending pairing code ${code} for channel ${channel} (expired?)`);
  if (opts.json) printJson(ctx, { rejected: true, channel, id: dropped.id });
  else printLine(ctx, `Rejected ${channel} pairing code ${code} (sender ${dropped.id})`);
  return 0;
}
