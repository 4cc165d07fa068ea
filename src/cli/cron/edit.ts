// `pincer cron edit <jobId> [flags]`: the flags given become a `cron.update` patch (checked before
// connecting); prints the job after the change.
import type { CronJob } from "../../cron/types.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { editOptions } from "./commands.js";
import { callCron, jobLine } from "./common.js";
import { patchFromFlags } from "./job-flags.js";

/** Changes one job. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof editOptions>,
): Promise<number> {
  const patch = patchFromFlags(opts, Date.now());
  const job = await callCron<CronJob>(ctx, {
    flags: opts,
    method: "cron.update",
    params: { jobId: args[0], patch },
  });
  if (opts.json) printJson(ctx, job);
  else printLine(ctx, `Updated ${jobLine(job)}`);
  return 0;
}
