// `pincer cron run <jobId> [--due]`: starts the job now (`cron.run`, mode force; --due only when due)
// and prints its run id; the outcome lands in `pincer cron runs <jobId>`.
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { runOptions } from "./commands.js";
import { callCron } from "./common.js";

/** Runs one job. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof runOptions>,
): Promise<number> {
  const jobId = args[0]!;
  const result = await callCron<{ ran: boolean; runId?: string; reason?: string }>(ctx, {
    flags: opts,
    method: "cron.run",
    params: { jobId, mode: opts.due ? "due" : "force" },
  });
  if (opts.json) printJson(ctx, result);
  else if (result.ran)
    printLine(ctx, `Started ${jobId} (run ${result.runId}); see pincer cron runs ${jobId}`);
  else printLine(ctx, `Not run: ${result.reason}`);
  return 0;
}
