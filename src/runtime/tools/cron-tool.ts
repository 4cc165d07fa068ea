// `cron`: the agent's own scheduler access (OpenClaw's tool name and actions: status, list, add,
// update, remove, run, runs, wake), so "remind me in 20 minutes" becomes a job. The calls go to the
// gateway's `cron.*` methods through the host (validated there like any client's). A job added here
// runs as the current agent and remembers this session, so its reply comes back to this chat; it
// cannot name another agent. Present only when the run has a gateway (a host).
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { Type } from "typebox";
import { jsonResult, ToolError } from "./types.js";

/** A cron method the tool calls. */
export type CronToolMethod =
  | "cron.status"
  | "cron.list"
  | "cron.add"
  | "cron.update"
  | "cron.remove"
  | "cron.run"
  | "cron.runs";

/** A host answer: the method's payload, or its error message. */
export type CronToolAnswer = { ok: true; payload: unknown } | { ok: false; error: string };

/** What the tool needs from the gateway. */
export interface CronToolHost {
  call(method: CronToolMethod, params: Record<string, unknown>): Promise<CronToolAnswer>;
  /** Queues a system event into the agent's main session; `now` also runs its heartbeat at once. */
  wake(params: {
    agentId: string;
    text: string;
    mode: "now" | "next-heartbeat";
  }): Promise<CronToolAnswer>;
}

/** The tool's context: the running agent and session. */
export interface CronToolContext {
  host: CronToolHost;
  agentId: string;
  sessionKey: string | undefined;
}

const JOB_KEYS = ["name", "schedule", "sessionTarget", "wakeMode", "payload", "delivery"];
const JOB_KEYS_MORE = ["enabled", "description", "deleteAfterRun", "agentId", "sessionKey"];

const CronToolSchema = Type.Object({
  action: Type.Union([
    Type.Literal("status"),
    Type.Literal("list"),
    Type.Literal("add"),
    Type.Literal("update"),
    Type.Literal("remove"),
    Type.Literal("run"),
    Type.Literal("runs"),
    Type.Literal("wake"),
  ]),
  includeDisabled: Type.Optional(Type.Boolean()),
  job: Type.Optional(Type.Object({}, { additionalProperties: true })),
  jobId: Type.Optional(Type.String()),
  id: Type.Optional(Type.String()),
  patch: Type.Optional(Type.Object({}, { additionalProperties: true })),
  text: Type.Optional(Type.String()),
  mode: Type.Optional(Type.Union([Type.Literal("now"), Type.Literal("next-heartbeat")])),
  runMode: Type.Optional(Type.Union([Type.Literal("due"), Type.Literal("force")])),
});

const DESCRIPTION = `Manage the gateway's cron jobs and wake events: status, list (includeDisabled), add (job),
update (jobId + patch), remove (jobId), run (jobId, runMode due|force), runs (jobId), wake (text, mode).
job: {name, schedule, sessionTarget, payload, delivery?, wakeMode?, deleteAfterRun?, enabled?}.
schedule: {kind:"at", at:"<ISO-8601; no zone = UTC>"} | {kind:"every", everyMs, anchorMs?} |
{kind:"cron", expr:"<5 or 6 fields>", tz?:"<IANA zone>"}.
sessionTarget "isolated" needs payload {kind:"agentTurn", message, model?, thinking?, timeoutSeconds?};
sessionTarget "main" needs payload {kind:"systemEvent", text} (wakeMode "now" runs at once).
delivery (isolated): {mode:"announce"|"none", channel?, to?, bestEffort?}; without channel/to the reply
comes back to this chat. One-shot "at" jobs are deleted after success (deleteAfterRun:false keeps them).
For a reminder, prefer an isolated agentTurn at the time, whose message says what to remind.`;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The job to add: `job`, or job fields a model put at the top level; defaulted to this agent/session. */
function jobToAdd(ctx: CronToolContext, args: Record<string, unknown>): Record<string, unknown> {
  let job = isRecord(args.job) && Object.keys(args.job).length > 0 ? { ...args.job } : undefined;
  if (!job) {
    const flat = Object.fromEntries(
      [...JOB_KEYS, ...JOB_KEYS_MORE]
        .filter((key) => args[key] !== undefined)
        .map((key) => [key, args[key]]),
    );
    if (flat.schedule !== undefined || flat.payload !== undefined) job = flat;
  }
  if (!job) throw new ToolError("cron add needs a job: {name, schedule, sessionTarget, payload}");
  const agentId = str(job.agentId);
  if (agentId && agentId.toLowerCase() !== ctx.agentId)
    throw new ToolError(
      `cron add: a job added by agent "${ctx.agentId}" runs as that agent, not "${agentId}"`,
    );
  job.agentId = ctx.agentId;
  if (ctx.sessionKey && job.sessionKey === undefined) job.sessionKey = ctx.sessionKey;
  if (typeof job.name !== "string" || job.name.trim() === "") job.name = "reminder";
  return job;
}

function jobIdOf(args: Record<string, unknown>, action: string): string {
  const id = str(args.jobId) ?? str(args.id);
  if (!id) throw new ToolError(`cron ${action} needs jobId`);
  return id;
}

async function answer(reply: Promise<CronToolAnswer>, action: string) {
  const result = await reply;
  if (!result.ok) throw new ToolError(`cron ${action} failed: ${result.error}`);
  return jsonResult(result.payload);
}

/** Creates the `cron` tool for one run. */
export function createCronTool(ctx: CronToolContext): AgentTool<typeof CronToolSchema> {
  return {
    name: "cron",
    label: "Cron",
    description: DESCRIPTION,
    parameters: CronToolSchema,
    async execute(_id, params) {
      const args = params as Record<string, unknown>;
      const { host } = ctx;
      switch (params.action) {
        case "status":
          return answer(host.call("cron.status", {}), "status");
        case "list":
          return answer(
            host.call("cron.list", { includeDisabled: params.includeDisabled === true }),
            "list",
          );
        case "add":
          return answer(host.call("cron.add", jobToAdd(ctx, args)), "add");
        case "update": {
          const patch = isRecord(params.patch) ? { ...params.patch } : undefined;
          if (!patch) throw new ToolError("cron update needs jobId and patch");
          const agentId = str(patch.agentId);
          if (patch.agentId === null || (agentId && agentId.toLowerCase() !== ctx.agentId))
            throw new ToolError("cron update: the tool cannot move a job to another agent");
          return answer(
            host.call("cron.update", { jobId: jobIdOf(args, "update"), patch }),
            "update",
          );
        }
        case "remove":
          return answer(host.call("cron.remove", { jobId: jobIdOf(args, "remove") }), "remove");
        case "run":
          return answer(
            host.call("cron.run", { jobId: jobIdOf(args, "run"), mode: params.runMode ?? "force" }),
            "run",
          );
        case "runs":
          return answer(host.call("cron.runs", { jobId: jobIdOf(args, "runs") }), "runs");
        case "wake": {
          const text = str(params.text);
          if (!text) throw new ToolError("cron wake needs text");
          return answer(
            host.wake({ agentId: ctx.agentId, text, mode: params.mode ?? "next-heartbeat" }),
            "wake",
          );
        }
      }
    },
  };
}
