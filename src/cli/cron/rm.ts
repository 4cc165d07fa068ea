// `pincer cron rm <jobId>`: removes a job (`cron.remove`); an unknown id exits 1.
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import type { idOptions } from "./commands.js";
import { callCron } from "./common.js";

/** Removes one job. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof idOptions>,
): Promise<number> {
  const jobId = args[0]!;
  const done = await callCron<{ removed: boolean }>(ctx, {
    flags: opts,
    method: "cron.remove",
    params: { jobId },
  });
  if (opts.json) printJson(ctx, done);
  if (!done.removed) throw new CliError(`unknown cron job "${jobId}" (see pincer cron list)`);
  if (!opts.json) printLine(ctx, `Removed cron job ${jobId}`);
  return 0;
}
