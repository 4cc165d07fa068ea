// `pincer cron enable <jobId>`: `cron.update` with `enabled: true` (its next run is computed again).
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { idOptions } from "./commands.js";
import { setEnabled } from "./set-enabled.js";

/** Enables one job. */
export async function run(ctx: CliContext, input: InputOf<typeof idOptions>): Promise<number> {
  return setEnabled(ctx, { ...input, enabled: true });
}
