// `pincer cron add` / `edit` flags → `cron.add` params or a `cron.update` patch, pure: exactly one
// schedule (--at | --every | --cron [--tz] [--stagger]) and one payload (--message | --system-event)
// for add, at most one of each for edit; --session must fit the payload; announce flags only with
// --message; --webhook <url> (either payload) instead of the announce flags. Every refusal is a
// usage error naming the flag.

import { parseAtInput, parseDurationText, scheduleProblem } from "../../cron/schedule.js";
import type { CronSchedule } from "../../cron/types.js";
import { webhookUrlProblem } from "../../cron/webhook.js";
import { SESSION_THINKING_LEVELS } from "../../protocol/gateway/session-levels.js";
import { CliError, ExitCode } from "../command-context.js";

/** The job flags both commands read (strings as typed). */
export interface JobFlags {
  name?: string | undefined;
  description?: string | undefined;
  agent?: string | undefined;
  session?: string | undefined;
  at?: string | undefined;
  every?: string | undefined;
  cron?: string | undefined;
  tz?: string | undefined;
  stagger?: string | undefined;
  systemEvent?: string | undefined;
  message?: string | undefined;
  wake?: string | undefined;
  model?: string | undefined;
  thinking?: string | undefined;
  timeoutSeconds?: string | undefined;
  announce?: boolean | undefined;
  channel?: string | undefined;
  to?: string | undefined;
  account?: string | undefined;
  bestEffortDeliver?: boolean | undefined;
  webhook?: string | undefined;
  deleteAfterRun?: boolean | undefined;
  keepAfterRun?: boolean | undefined;
}

function usage(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}

function given(flags: JobFlags, names: Array<keyof JobFlags>): string[] {
  const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return names.filter((name) => flags[name] !== undefined).map((name) => flagOf(name));
}

/** The schedule of the flags, or undefined when none is given; `nowMs` anchors `--at 20m`. */
export function scheduleFromFlags(flags: JobFlags, nowMs: number): CronSchedule | undefined {
  const chosen = given(flags, ["at", "every", "cron"]);
  if (chosen.length > 1)
    throw usage(`choose one schedule: --at, --every or --cron (got ${chosen.join(" and ")})`);
  if (flags.tz !== undefined && flags.cron === undefined) throw usage("--tz goes with --cron");
  if (flags.stagger !== undefined && flags.cron === undefined)
    throw usage("--stagger goes with --cron");
  if (flags.at !== undefined) {
    const at = parseAtInput(flags.at, nowMs);
    if (!at.ok) throw usage(`--at ${at.error}`);
    return { kind: "at", at: at.at };
  }
  if (flags.every !== undefined) {
    const everyMs = parseDurationText(flags.every);
    if (!everyMs || everyMs < 1)
      throw usage(`--every "${flags.every}": expected a duration like 10m, 1h or 1d`);
    return { kind: "every", everyMs };
  }
  if (flags.cron === undefined) return undefined;
  const staggerMs = flags.stagger === undefined ? undefined : parseDurationText(flags.stagger);
  if (flags.stagger !== undefined && staggerMs === undefined)
    throw usage(`--stagger "${flags.stagger}": expected a duration like 5m`);
  const schedule: CronSchedule = {
    kind: "cron",
    expr: flags.cron.trim(),
    ...(flags.tz ? { tz: flags.tz.trim() } : {}),
    ...(staggerMs ? { staggerMs } : {}),
  };
  const problem = scheduleProblem(schedule);
  if (problem)
    throw usage(problem.replace("schedule.expr", "--cron").replace("schedule.tz", "--tz"));
  return schedule;
}

function payloadFromFlags(flags: JobFlags): Record<string, unknown> | undefined {
  const chosen = given(flags, ["message", "systemEvent"]);
  if (chosen.length > 1) throw usage("choose one payload: --message or --system-event");
  const turnOnly = given(flags, ["model", "thinking", "timeoutSeconds"]);
  if (flags.systemEvent !== undefined) {
    if (turnOnly.length > 0)
      throw usage(`${turnOnly.join(", ")} go with --message (an isolated turn)`);
    if (!flags.systemEvent.trim()) throw usage("--system-event needs text");
    return { kind: "systemEvent", text: flags.systemEvent };
  }
  if (
    flags.thinking !== undefined &&
    !(SESSION_THINKING_LEVELS as readonly string[]).includes(flags.thinking)
  )
    throw usage(
      `--thinking "${flags.thinking}": expected one of ${SESSION_THINKING_LEVELS.join(", ")}`,
    );
  const timeout = flags.timeoutSeconds === undefined ? undefined : Number(flags.timeoutSeconds);
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 0))
    throw usage(`--timeout-seconds "${flags.timeoutSeconds}": expected a whole number, 0 or more`);
  if (flags.message === undefined && turnOnly.length === 0) return undefined;
  if (flags.message !== undefined && !flags.message.trim()) throw usage("--message needs text");
  return {
    kind: "agentTurn",
    ...(flags.message !== undefined ? { message: flags.message } : {}),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.thinking ? { thinking: flags.thinking } : {}),
    ...(timeout !== undefined ? { timeoutSeconds: timeout } : {}),
  };
}

function webhookDelivery(flags: JobFlags): Record<string, unknown> {
  const clash = given(flags, ["channel", "to", "account"]);
  if (flags.announce !== undefined) clash.unshift(flags.announce ? "--announce" : "--no-announce");
  if (clash.length > 0) throw usage(`--webhook does not go with ${clash.join(", ")}`);
  const problem = webhookUrlProblem(flags.webhook);
  if (problem) throw usage(`--webhook "${flags.webhook}": expected an http(s) URL`);
  return {
    mode: "webhook",
    to: flags.webhook?.trim(),
    ...(flags.bestEffortDeliver ? { bestEffort: true } : {}),
  };
}

function deliveryFromFlags(flags: JobFlags): Record<string, unknown> | undefined {
  if (flags.webhook !== undefined) return webhookDelivery(flags);
  const fields = given(flags, ["channel", "to", "account", "bestEffortDeliver"]);
  if (flags.announce === undefined && fields.length === 0) return undefined;
  if (flags.announce === false && fields.length > 0)
    throw usage(`--no-announce does not take ${fields.join(", ")}`);
  return {
    mode: flags.announce === false ? "none" : "announce",
    ...(flags.channel ? { channel: flags.channel } : {}),
    ...(flags.to ? { to: flags.to } : {}),
    ...(flags.account ? { accountId: flags.account } : {}),
    ...(flags.bestEffortDeliver ? { bestEffort: true } : {}),
  };
}

function common(flags: JobFlags): Record<string, unknown> {
  if (flags.deleteAfterRun && flags.keepAfterRun)
    throw usage("choose one: --delete-after-run or --keep-after-run");
  if (flags.wake !== undefined && flags.message !== undefined)
    throw usage("--wake goes with --system-event (a main-session job)");
  return {
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags.description !== undefined ? { description: flags.description } : {}),
    ...(flags.agent ? { agentId: flags.agent } : {}),
    ...(flags.wake ? { wakeMode: flags.wake } : {}),
    ...(flags.deleteAfterRun ? { deleteAfterRun: true } : {}),
    ...(flags.keepAfterRun ? { deleteAfterRun: false } : {}),
  };
}

/** `cron.add` params from the flags of `pincer cron add`. */
export function addParamsFromFlags(flags: JobFlags, nowMs: number): Record<string, unknown> {
  if (!flags.name?.trim()) throw usage("--name is required");
  const schedule = scheduleFromFlags(flags, nowMs);
  if (!schedule) throw usage("a schedule is required: --at, --every or --cron");
  const payload = payloadFromFlags(flags);
  if (!payload || (payload.kind === "agentTurn" && payload.message === undefined))
    throw usage(
      "a payload is required: --message (isolated turn) or --system-event (main session)",
    );
  const expected = payload.kind === "systemEvent" ? "main" : "isolated";
  if (flags.session && flags.session !== expected)
    throw usage(
      `--session ${flags.session} needs ${flags.session === "main" ? "--system-event" : "--message"}`,
    );
  const delivery = deliveryFromFlags(flags);
  if (delivery && delivery.mode !== "webhook" && payload.kind === "systemEvent")
    throw usage(
      "--announce, --channel and --to go with --message (a main job replies where the session last talked)",
    );
  return {
    ...common(flags),
    schedule,
    sessionTarget: expected,
    payload,
    ...(delivery ? { delivery } : {}),
  };
}

/** A `cron.update` patch from the flags of `pincer cron edit` (only what was given). */
export function patchFromFlags(
  flags: JobFlags & {
    enable?: boolean | undefined;
    disable?: boolean | undefined;
    clearAgent?: boolean | undefined;
  },
  nowMs: number,
): Record<string, unknown> {
  if (flags.enable && flags.disable) throw usage("choose one: --enable or --disable");
  if (flags.clearAgent && flags.agent) throw usage("choose one: --agent or --clear-agent");
  const schedule = scheduleFromFlags(flags, nowMs);
  const payload = payloadFromFlags(flags);
  const delivery = deliveryFromFlags(flags);
  const patch: Record<string, unknown> = {
    ...common(flags),
    ...(schedule ? { schedule } : {}),
    ...(payload ? { payload } : {}),
    ...(delivery ? { delivery } : {}),
    ...(flags.session ? { sessionTarget: flags.session } : {}),
    ...(flags.enable ? { enabled: true } : {}),
    ...(flags.disable ? { enabled: false } : {}),
    ...(flags.clearAgent ? { agentId: null } : {}),
  };
  if (Object.keys(patch).length === 0)
    throw usage("nothing to change: give at least one flag (see --help)");
  return patch;
}
