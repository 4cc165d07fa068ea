// `pincer cron disable <jobId>`: `cron.update` with `enabled: false` (kept, never runs until enabled).
import type { InputOf } from "../command.js";
import type { CliContext } from "../command-context.js";
import type { idOptions } from "./commands.js";
import { setEnabled } from "./set-enabled.js";

/** Disables one job. */
export async function run(ctx: CliContext, input: InputOf<typeof idOptions>): Promise<number> {
  return setEnabled(ctx, { ...input, enabled: false });
}
