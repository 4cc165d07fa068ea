// `pincer cron status [--json]`: whether the scheduler runs, where its store is, how many jobs, the
// next wake (and why the store is unusable, when it is).
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine } from "../command-context.js";
import type { idOptions } from "./commands.js";
import { callCron, when } from "./common.js";

/** Prints the scheduler's status. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof idOptions>): Promise<number> {
  const status = await callCron<{
    enabled: boolean;
    storePath: string;
    jobs: number;
    enabledJobs: number;
    running: number;
    nextWakeAtMs: number | null;
    error?: string;
  }>(ctx, { flags: opts, method: "cron.status", params: {} });
  if (opts.json) {
    printJson(ctx, status);
    return 0;
  }
  printLine(ctx, `Cron: ${status.enabled ? "enabled" : "disabled"} · store ${status.storePath}`);
  printLine(
    ctx,
    `Jobs: ${status.jobs} (${status.enabledJobs} enabled, ${status.running} running) · next wake ${when(status.nextWakeAtMs)}`,
  );
  if (status.error) printLine(ctx, `Store problem: ${status.error}`);
  return 0;
}
