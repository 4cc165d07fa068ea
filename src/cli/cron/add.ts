// `pincer cron add --name N (--at|--every|--cron) (--message|--system-event) [...]`: checks the flags
// (before connecting), adds the job through `cron.add` and prints it (`--json`: the job as stored).
import type { CronJob } from "../../cron/types.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { addOptions } from "./commands.js";
import { callCron, jobLine } from "./common.js";
import { addParamsFromFlags } from "./job-flags.js";

/** Adds one job. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof addOptions>): Promise<number> {
  const params = addParamsFromFlags(opts, Date.now());
  if (opts.disabled) params.enabled = false;
  const job = await callCron<CronJob>(ctx, { flags: opts, method: "cron.add", params });
  if (opts.json) printJson(ctx, job);
  else printLine(ctx, `Added ${jobLine(job)}`);
  return 0;
}
