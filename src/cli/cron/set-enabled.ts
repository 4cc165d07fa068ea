// What `pincer cron enable` and `disable` share: one `cron.update` of `enabled`, the job printed.
import type { CronJob } from "../../cron/types.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { idOptions } from "./commands.js";
import { callCron, jobLine } from "./common.js";

/** Sets a job's `enabled`; prints it. */
export async function setEnabled(
  ctx: CliContext,
  input: InputOf<typeof idOptions> & { enabled: boolean },
): Promise<number> {
  const { args, opts, enabled } = input;
  const job = await callCron<CronJob>(ctx, {
    flags: opts,
    method: "cron.update",
    params: { jobId: args[0], patch: { enabled } },
  });
  if (opts.json) printJson(ctx, job);
  else printLine(ctx, `${enabled ? "Enabled" : "Disabled"} ${jobLine(job)}`);
  return 0;
}
