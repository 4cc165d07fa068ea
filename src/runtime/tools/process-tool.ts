// `process`: list, poll, read the log of, kill and remove the background jobs `exec` started, with output caps.
import type { AgentTool } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "typebox";
import type { ProcessJob, ProcessRegistry } from "./process-registry.js";
import { ToolError, type ToolLimits, textResult } from "./types.js";

const ProcessParams = Type.Object({
  action: Type.Union(
    [
      Type.Literal("list"),
      Type.Literal("poll"),
      Type.Literal("log"),
      Type.Literal("kill"),
      Type.Literal("remove"),
    ],
    {
      description:
        "list: all jobs; poll: new output and status; log: output so far (line window); kill: stop; remove: forget a finished job.",
    },
  ),
  jobId: Type.Optional(
    Type.String({ description: "Job id returned by exec (not needed for list)." }),
  ),
  waitMs: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 60_000,
      description: "poll: wait up to this long for the job to end.",
    }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 1, description: "log: first line (1-based)." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: "log: number of lines (default 200)." }),
  ),
});
type ProcessArgs = Static<typeof ProcessParams>;

/** A job as the model sees it. */
export interface JobSummary {
  jobId: string;
  status: "running" | "exited" | "killed" | "timed_out" | "failed";
  command: string;
  pid?: number;
  exitCode?: number | null;
  runtimeMs: number;
}

/** What `process` needs. */
export interface ProcessToolContext {
  jobs: ProcessRegistry;
  scope: string;
  limits: ToolLimits;
}

const DEFAULT_LOG_LINES = 200;

/** The public summary of a job. */
export function summarizeJob(job: ProcessJob, now: number = Date.now()): JobSummary {
  const exit = job.process.exit;
  let status: JobSummary["status"] = "running";
  if (exit?.error) status = "failed";
  else if (exit?.timedOut) status = "timed_out";
  else if (exit?.stopped) status = "killed";
  else if (exit) status = "exited";
  return {
    jobId: job.id,
    status,
    command: job.command,
    ...(job.process.pid ? { pid: job.process.pid } : {}),
    ...(exit ? { exitCode: exit.exitCode } : {}),
    runtimeMs: exit ? exit.durationMs : now - job.process.startedAt,
  };
}

function statusLine(summary: JobSummary): string {
  const secs = (summary.runtimeMs / 1000).toFixed(1);
  if (summary.status === "running") return `[job ${summary.jobId}: running for ${secs} s]`;
  const code = summary.exitCode === undefined ? "" : `, exit code ${summary.exitCode}`;
  return `[job ${summary.jobId}: ${summary.status}${code} after ${secs} s]`;
}

function waitFor(job: ProcessJob, wait: { ms: number; signal?: AbortSignal }): Promise<void> {
  const { ms, signal } = wait;
  if (ms <= 0 || !job.process.running) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    void job.process.done.then(done);
  });
}

function logWindow(job: ProcessJob, args: ProcessArgs): string {
  const lines = job.process.output.text().split("\n");
  const limit = args.limit ?? DEFAULT_LOG_LINES;
  const start = args.offset ? args.offset - 1 : Math.max(0, lines.length - limit);
  const picked = lines.slice(start, start + limit);
  const header = `[lines ${start + 1}-${start + picked.length} of ${lines.length}]`;
  return `${header}\n${picked.join("\n")}`;
}

/** Creates the `process` tool. */
export function createProcessTool(
  ctx: ProcessToolContext,
): AgentTool<typeof ProcessParams, JobSummary | JobSummary[]> {
  const need = (args: ProcessArgs): ProcessJob => {
    if (!args.jobId) throw new ToolError(`action "${args.action}" needs a jobId.`);
    const job = ctx.jobs.get(ctx.scope, args.jobId);
    if (!job)
      throw new ToolError(`No background job "${args.jobId}"; use action "list" to see jobs.`);
    return job;
  };
  return {
    name: "process",
    label: "Process",
    description:
      "Manage background jobs started by exec with background: true: list, poll (new output since the last " +
      "poll and the status; waitMs waits for the end), log (output so far, line window), kill, remove.",
    parameters: ProcessParams,
    async execute(_id, args, signal) {
      if (args.action === "list") {
        const jobs = ctx.jobs.list(ctx.scope).map((job) => summarizeJob(job));
        const text =
          jobs.length === 0
            ? "No background jobs."
            : jobs
                .map(statusLine)
                .map((line, i) => `${line} ${jobs[i].command}`)
                .join("\n");
        return textResult(text, jobs);
      }
      const job = need(args);
      if (args.action === "poll") {
        await waitFor(job, { ms: args.waitMs ?? 0, signal });
        const summary = summarizeJob(job);
        const fresh = job.process.output.drain();
        return textResult(
          `${fresh === "" ? "(no new output)" : fresh}\n\n${statusLine(summary)}`,
          summary,
        );
      }
      if (args.action === "log") {
        const summary = summarizeJob(job);
        return textResult(`${logWindow(job, args)}\n\n${statusLine(summary)}`, summary);
      }
      if (args.action === "kill") {
        if (!job.process.running)
          return textResult(`Job ${job.id} had already ended.`, summarizeJob(job));
        job.process.stop();
        await waitFor(job, { ms: ctx.limits.killGraceMs + 2000 });
        return textResult(`Killed job ${job.id}.`, summarizeJob(job));
      }
      if (job.process.running)
        throw new ToolError(`Job ${job.id} is still running; kill it first.`);
      ctx.jobs.remove(ctx.scope, job.id);
      return textResult(`Removed job ${job.id}.`, summarizeJob(job));
    },
  };
}
