// `pincer sessions export --to <dir|postgres-url> [--agent ID] [--schema S] [--force] [--json]`: copies the
// configured session store (PostgreSQL with cluster.store, else the files) to a state-dir-shaped
// directory (`<dir>/agents/<id>/sessions/`) or a PostgreSQL database, losslessly.
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { exportOptions } from "./commands.js";
import { configuredLocation, parseLocation, runTransfer } from "./export-shared.js";

/** Exports every agent's sessions (or one agent's) and prints the counts. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof exportOptions>,
): Promise<number> {
  const loaded = loadForCli(ctx, { requireValid: true });
  return runTransfer(ctx, {
    loaded,
    from: configuredLocation(loaded),
    to: parseLocation(opts.to, opts.schema),
    intoConfigured: false,
    ...(opts.agent !== undefined ? { agent: opts.agent } : {}),
    force: opts.force === true,
    json: opts.json === true,
    verb: "Exported",
  });
}
