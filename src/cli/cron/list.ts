// `pincer cron list [--all] [--json]`: the jobs (enabled ones unless --all), soonest first: id, name,
// schedule, next run, last status and target.
import { describeSchedule } from "../../cron/schedule.js";
import type { CronJob } from "../../cron/types.js";
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import type { listOptions } from "./commands.js";
import { callCron, when } from "./common.js";

function row(job: CronJob): string[] {
  return [
    job.id,
    job.name,
    describeSchedule(job.schedule),
    job.enabled ? when(job.state.nextRunAtMs) : "disabled",
    job.state.lastStatus ?? "-",
    job.sessionTarget,
    job.agentId ?? "-",
  ];
}

/** Lists the gateway's jobs. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const page = await callCron<{ jobs: CronJob[]; total: number }>(ctx, {
    flags: opts,
    method: "cron.list",
    params: { includeDisabled: opts.all === true, limit: 200 },
  });
  if (opts.json) {
    printJson(ctx, page);
    return 0;
  }
  if (page.jobs.length === 0) {
    printLine(ctx, "No cron jobs. Add one with: pincer cron add --name N --every 1h --message …");
    return 0;
  }
  const rows = [
    ["ID", "NAME", "SCHEDULE", "NEXT", "LAST", "TARGET", "AGENT"],
    ...page.jobs.map(row),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const s = style(ctx);
  rows.forEach((cells, index) => {
    const line = cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("  ");
    printLine(ctx, index === 0 ? s.dim(line) : line);
  });
  return 0;
}
