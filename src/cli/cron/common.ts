// Shared by the `pincer cron …` commands: one request to the running gateway (connect, call, close;
// a failure is a CliError naming the method) and the one-line description of a job.
import { describeSchedule } from "../../cron/schedule.js";
import type { CronJob } from "../../cron/types.js";
import type { CliContext } from "../command-context.js";
import {
  connectForCli,
  type GatewayClientFlags,
  requestFailure,
  resolveGatewayTarget,
} from "../gateway-client-options.js";

/** Calls one `cron.*` method of the gateway and returns its payload. */
export async function callCron<T = Record<string, unknown>>(
  ctx: CliContext,
  call: { flags: GatewayClientFlags; method: string; params: Record<string, unknown> },
): Promise<T> {
  const target = resolveGatewayTarget(ctx, call.flags);
  const client = await connectForCli(ctx, target, { hint: "start it with: pincer gateway run" });
  try {
    return (await client.request(call.method, call.params)) as T;
  } catch (err) {
    throw requestFailure(err, call.method);
  } finally {
    await client.close();
  }
}

/** A time as ISO, or "-". */
export function when(ms: number | undefined | null): string {
  return typeof ms === "number" ? new Date(ms).toISOString() : "-";
}

/** `<id>  <name>  <schedule>  next <time>` for a job. */
export function jobLine(job: CronJob): string {
  const next = job.enabled ? `next ${when(job.state.nextRunAtMs)}` : "disabled";
  return `${job.id}  ${job.name}  ${describeSchedule(job.schedule)}  ${next}`;
}
