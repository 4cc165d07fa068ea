// `pincer sessions import --from <dir|postgres-url> [--agent ID] [--schema S] [--force] [--json]`: copies
// sessions from a state-dir-shaped directory (an OpenClaw state dir works) or a PostgreSQL database into
// the configured store. Existing sessions are kept unless --force; into files, the state-dir lock is held.
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { importOptions } from "./commands.js";
import { configuredLocation, parseLocation, runTransfer } from "./export-shared.js";

/** Imports every agent's sessions (or one agent's) and prints the counts. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof importOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  return runTransfer(ctx, {
    loaded,
    from: parseLocation(opts.from, opts.schema),
    to: configuredLocation(loaded),
    intoConfigured: true,
    ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
    force: opts.force === true,
    json: opts.json === true,
    verb: "Imported",
  });
}
