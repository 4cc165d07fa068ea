// The `pincer cron` family, OpenClaw's shape: add, edit, rm, enable, disable, run, runs, list and
// status, each a call to the running gateway's `cron.*` methods. Declarations only; each `run`
// loads on first call. Bad flags are refused before connecting, naming the flag.
import { defineCommand, flag, lazyRun, value } from "../command.js";
import { gatewayClientOptions } from "../gateway-client-flags.js";

/** `pincer cron`. */
export const cronGroup = {
  path: ["cron"],
  description: "schedule jobs in the gateway: reminders, recurring agent turns, system events",
} as const;

const jobFields = {
  name: value("<name>", "job name"),
  description: value("<text>", "job description"),
  agent: value("<id>", "agent the job runs as (default: the default agent)"),
  session: value("<target>", "main (system event) or isolated (agent turn in cron:<jobId>)", {
    choices: ["main", "isolated"],
  }),
  at: value("<when>", "one-shot: an ISO time (no zone = UTC) or a delay like 20m, +1h"),
  every: value("<duration>", "recurring interval: 10m, 1h, 1d"),
  cron: value("<expr>", "cron expression, 5 fields (or 6 with seconds)"),
  tz: value("<zone>", "IANA time zone of --cron (default: the gateway host's)"),
  stagger: value("<duration>", "spread --cron runs by up to this much, fixed per job"),
  systemEvent: value("<text>", "payload: a system event into the agent's main session"),
  message: value("<text>", "payload: the message of an isolated agent turn"),
  wake: value("<mode>", "system events: now (run a turn at once, default) or next-heartbeat", {
    choices: ["now", "next-heartbeat"],
  }),
  model: value("<ref>", "model of the isolated turn (provider/model or alias)"),
  thinking: value("<level>", "thinking level of the isolated turn (off … xhigh)"),
  timeoutSeconds: value("<n>", "time limit of the isolated turn in seconds (0 = none)"),
  announce: flag("deliver the isolated turn's reply (the default; --no-announce keeps it quiet)", {
    negation: "do not deliver the reply (delivery none)",
  }),
  channel: value(
    "<id>",
    "delivery channel (telegram, slack, …) or last (where the agent last talked)",
  ),
  to: value("<target>", "delivery recipient on --channel (chat id, user, channel:<id>)"),
  account: value("<id>", "delivery account of --channel"),
  bestEffortDeliver: flag("a failed delivery does not fail the job"),
  webhook: value(
    "<url>",
    "POST each finished run as JSON to this http(s) URL instead (bearer: cron.webhookToken)",
  ),
  deleteAfterRun: flag("delete a one-shot job after it succeeded (the default)"),
  keepAfterRun: flag("keep a one-shot job (disabled) after it succeeded"),
};

/** Options of `pincer cron add`. */
export const addOptions = {
  ...jobFields,
  disabled: flag("add the job disabled"),
  ...gatewayClientOptions,
};
/** Options of `pincer cron edit`. */
export const editOptions = {
  ...jobFields,
  enable: flag("enable the job"),
  disable: flag("disable the job"),
  clearAgent: flag("run as the default agent again"),
  ...gatewayClientOptions,
};
/** Options of `pincer cron list`. */
export const listOptions = { all: flag("include disabled jobs"), ...gatewayClientOptions };
/** Options of `pincer cron run`. */
export const runOptions = {
  due: flag("run only when due (default: force)"),
  ...gatewayClientOptions,
};
/** Options of `pincer cron runs`. */
export const runsOptions = {
  id: value("<jobId>", "job id (same as the argument)"),
  limit: value("<n>", "entries to show (default 20)"),
  ...gatewayClientOptions,
};
/** Options of the commands that take only a job id (rm, enable, disable) and of status. */
export const idOptions = { ...gatewayClientOptions };

const jobArgument = [
  { name: "jobId", description: "job id (from pincer cron list)", required: true },
];

/** Every `pincer cron` command, in help order. */
export const cronCommands = [
  defineCommand({
    path: ["cron", "status"],
    description: "whether the scheduler runs, its store and next wake",
    options: idOptions,
    run: lazyRun(() => import("./status.js")),
  }),
  defineCommand({
    path: ["cron", "list"],
    isDefault: true,
    description: "list jobs, soonest first",
    options: listOptions,
    run: lazyRun(() => import("./list.js")),
  }),
  defineCommand({
    path: ["cron", "add"],
    description: "add a job: --name, one of --at/--every/--cron, one of --message/--system-event",
    options: addOptions,
    run: lazyRun(() => import("./add.js")),
  }),
  defineCommand({
    path: ["cron", "edit"],
    description: "change a job (only the flags given)",
    arguments: jobArgument,
    options: editOptions,
    run: lazyRun(() => import("./edit.js")),
  }),
  defineCommand({
    path: ["cron", "rm"],
    description: "remove a job",
    arguments: jobArgument,
    options: idOptions,
    run: lazyRun(() => import("./rm.js")),
  }),
  defineCommand({
    path: ["cron", "enable"],
    description: "enable a job",
    arguments: jobArgument,
    options: idOptions,
    run: lazyRun(() => import("./enable.js")),
  }),
  defineCommand({
    path: ["cron", "disable"],
    description: "disable a job",
    arguments: jobArgument,
    options: idOptions,
    run: lazyRun(() => import("./disable.js")),
  }),
  defineCommand({
    path: ["cron", "run"],
    description: "run a job now (--due: only when due)",
    arguments: jobArgument,
    options: runOptions,
    run: lazyRun(() => import("./run.js")),
  }),
  defineCommand({
    path: ["cron", "runs"],
    description: "a job's run history, newest first",
    arguments: [{ name: "jobId", description: "job id (or --id)" }],
    options: runsOptions,
    run: lazyRun(() => import("./runs.js")),
  }),
];
