// `pincer cron runs <jobId> [--limit N] [--json]` (also `--id`, OpenClaw's flag): the job's run
// history, newest first: time, status, delivery, duration and the summary or error.
import type { CronRunLogEntry } from "../../cron/types.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printJson, printLine } from "../command-context.js";
import { parsePositiveInt } from "../gateway-client-options.js";
import type { runsOptions } from "./commands.js";
import { callCron, when } from "./common.js";

/** Prints one job's runs. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof runsOptions>,
): Promise<number> {
  const jobId = args[0] ?? opts.id;
  if (!jobId) throw new CliError("a job id is required: pincer cron runs <jobId>", ExitCode.usage);
  const limit = parsePositiveInt(opts.limit, "--limit") ?? 20;
  const page = await callCron<{ entries: CronRunLogEntry[]; total: number }>(ctx, {
    flags: opts,
    method: "cron.runs",
    params: { id: jobId, limit: Math.min(limit, 200) },
  });
  if (opts.json) {
    printJson(ctx, page);
    return 0;
  }
  if (page.entries.length === 0) {
    printLine(ctx, `No runs of ${jobId} yet.`);
    return 0;
  }
  for (const entry of page.entries) {
    const what = entry.error ?? entry.summary ?? "";
    const delivery = entry.deliveryStatus ?? "-";
    printLine(
      ctx,
      `${when(entry.runAtMs ?? entry.ts)}  ${entry.status ?? "-"}  ${delivery}  ${entry.durationMs ?? 0}ms  ${what.split("\n")[0]}`,
    );
  }
  return 0;
}
