// `exec`: run a shell command in the workspace (or `workdir`), with a timeout, head+tail output cap and the
// exit code; an aborted run kills the command's process group. `background: true` hands it to `process`.
import { stat } from "node:fs/promises";
import { delimiter, isAbsolute } from "node:path";
import type { AgentTool, AgentToolUpdateCallback } from "@mariozechner/pi-agent-core";
import { type Static, Type } from "typebox";
import type { Logger } from "../../lib/logger.js";
import { SANDBOX_WORKDIR, type SandboxCommand } from "../sandbox/backend.js";
import type { SandboxSession } from "../sandbox/session.js";
import { displayPath, resolveToolPath, type ToolPathContext } from "./paths.js";
import type { ProcessRegistry } from "./process-registry.js";
import { type ShellExit, ShellProcess } from "./shell-process.js";
import {
  errnoCode,
  ToolAbortedError,
  ToolError,
  type ToolLimits,
  textResult,
  throwIfAborted,
} from "./types.js";

const ExecParams = Type.Object({
  command: Type.String({ description: "Shell command to run (POSIX sh)." }),
  workdir: Type.Optional(
    Type.String({ description: "Working directory; defaults to the workspace." }),
  ),
  env: Type.Optional(
    Type.Record(Type.String(), Type.String(), { description: "Extra environment variables." }),
  ),
  timeout: Type.Optional(
    Type.Number({
      minimum: 1,
      description: "Timeout in seconds (the command is killed after it).",
    }),
  ),
  background: Type.Optional(
    Type.Boolean({
      description: "Run in the background and return a job id for the process tool.",
    }),
  ),
});
/** The arguments of one `exec` call. */
export type ExecArgs = Static<typeof ExecParams>;

/** Structured details of an `exec` result. */
export interface ExecDetails {
  status: "completed" | "running";
  cwd: string;
  exitCode?: number | null;
  durationMs?: number;
  truncated?: boolean;
  jobId?: string;
  pid?: number;
}

/** What `exec` needs. */
export interface ExecToolContext extends ToolPathContext {
  jobs: ProcessRegistry;
  /** Scope of the background jobs this tool starts (see {@link ProcessRegistry}). */
  scope: string;
  limits: ToolLimits;
  /** `tools.exec.timeoutSec`, when configured. */
  timeoutSec?: number;
  /** `tools.exec.pathPrepend`: directories put in front of PATH. */
  pathPrepend?: string[];
  /** Base environment of commands (process env + config `env` vars); default process.env. */
  env?: Record<string, string | undefined>;
  /** False when the policy hides `process`: background jobs could not be read, so they are refused. */
  allowBackground?: boolean;
  logger?: Logger;
  /** Set in a sandboxed session: commands run inside this sandbox, never on the host. */
  sandboxSession?: SandboxSession;
}

/** Where one `exec` call runs: on the host in `cwd`, or inside the sandbox through `command`. */
export type ExecTarget =
  | { kind: "host"; cwd: string; env: NodeJS.ProcessEnv }
  | { kind: "sandbox"; cwd: string; command: SandboxCommand };

const UPDATE_EVERY_MS = 500;
const UPDATE_CHARS = 4000;

async function resolveCwd(ctx: ExecToolContext, workdir: string | undefined): Promise<string> {
  const cwd = workdir ? await resolveToolPath(ctx, workdir) : ctx.workspaceDir;
  try {
    if ((await stat(cwd)).isDirectory()) return cwd;
  } catch (err) {
    if (errnoCode(err) !== "ENOENT") throw err;
  }
  throw new ToolError(
    `Working directory ${displayPath(ctx, cwd)} does not exist or is not a directory.`,
  );
}

/** The sandbox working directory: /workspace paths and relative ones must exist in the mounted dir. */
async function sandboxWorkdir(ctx: ExecToolContext, workdir: string | undefined): Promise<string> {
  const raw = workdir?.trim() || SANDBOX_WORKDIR;
  const inWorkspace =
    !isAbsolute(raw) || raw === SANDBOX_WORKDIR || raw.startsWith(`${SANDBOX_WORKDIR}/`);
  // Elsewhere (/tmp, a bind) is the sandbox's own filesystem: the sandbox itself checks it.
  if (!inWorkspace) return raw;
  const pathCtx = { ...ctx, workspaceOnly: true, sandbox: { mount: SANDBOX_WORKDIR } };
  return displayPath(pathCtx, await resolveCwd({ ...ctx, ...pathCtx }, raw));
}

/**
 * The one decision "host or sandbox" for an `exec` call: a sandboxed session runs inside its sandbox
 * (a backend failure is a ToolError: never a fallback to the host); otherwise the host.
 */
export async function chooseExecTarget(ctx: ExecToolContext, args: ExecArgs): Promise<ExecTarget> {
  if (!ctx.sandboxSession) {
    return { kind: "host", cwd: await resolveCwd(ctx, args.workdir), env: buildEnv(ctx, args.env) };
  }
  const handle = await ctx.sandboxSession.ensure();
  if (!handle.ok)
    throw new ToolError(
      `The sandbox is unavailable: ${handle.error} Nothing was run (a sandboxed session never falls back to the host).`,
    );
  const workdir = await sandboxWorkdir(ctx, args.workdir);
  const command = handle.value.command({
    command: args.command,
    workdir,
    ...(args.env ? { env: args.env } : {}),
  });
  return { kind: "sandbox", cwd: workdir, command };
}

/** How ShellProcess starts the target: the shell on the host, or the sandbox client's argv. */
function spawnFields(target: ExecTarget) {
  if (target.kind === "host") return { cwd: target.cwd, env: target.env };
  const { command } = target;
  return {
    cwd: command.cwd,
    env: command.env,
    argv: command.argv,
    ...(command.stop ? { stopInside: command.stop } : {}),
  };
}

function buildEnv(
  ctx: ExecToolContext,
  extra: Record<string, string> | undefined,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(ctx.env ?? process.env), ...extra };
  if (ctx.pathPrepend && ctx.pathPrepend.length > 0) {
    env.PATH = [...ctx.pathPrepend, env.PATH ?? ""].filter(Boolean).join(delimiter);
  }
  return env;
}

function failureText(params: {
  output: string;
  exit: ShellExit;
  timeoutSec: number;
}): string | undefined {
  const { output, exit, timeoutSec } = params;
  if (exit.error) return `Failed to start the command: ${exit.error}`;
  if (exit.timedOut)
    return `${output}\n\nCommand timed out after ${timeoutSec} seconds and was killed.`;
  if (exit.signal) return `${output}\n\nCommand was ended by signal ${exit.signal}.`;
  if (exit.exitCode !== 0) return `${output}\n\nCommand exited with code ${exit.exitCode}.`;
  return undefined;
}

/** Throttled progress updates: the newest output, at most every UPDATE_EVERY_MS. */
function progressReporter(
  onUpdate: AgentToolUpdateCallback<ExecDetails> | undefined,
  cwd: string,
): ((proc: ShellProcess) => void) | undefined {
  if (!onUpdate) return undefined;
  let last = 0;
  return (proc) => {
    if (Date.now() - last < UPDATE_EVERY_MS) return;
    last = Date.now();
    onUpdate(textResult(proc.output.latest(UPDATE_CHARS), { status: "running", cwd }));
  };
}

interface RunParams {
  ctx: ExecToolContext;
  args: ExecArgs;
  target: ExecTarget;
  timeoutSec: number;
}

async function runForeground(
  params: RunParams & { signal?: AbortSignal; onUpdate?: AgentToolUpdateCallback<ExecDetails> },
) {
  const { ctx, args, target, timeoutSec, signal } = params;
  const cwd = target.cwd;
  const report = progressReporter(params.onUpdate, cwd);
  const proc: ShellProcess = ShellProcess.start({
    command: args.command,
    ...spawnFields(target),
    outputCap: ctx.limits.execMaxOutputChars,
    timeoutMs: timeoutSec * 1000,
    killGraceMs: ctx.limits.killGraceMs,
    onOutput: report ? () => report(proc) : undefined,
    logger: ctx.logger,
  });
  const onAbort = () => proc.stop();
  signal?.addEventListener("abort", onAbort, { once: true });
  let exit: ShellExit;
  try {
    exit = await proc.done;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (signal?.aborted) throw new ToolAbortedError("exec");
  const output = proc.output.text() || "(no output)";
  const failure = failureText({ output, exit, timeoutSec });
  if (failure) throw new ToolError(failure);
  return textResult<ExecDetails>(output, {
    status: "completed",
    cwd,
    exitCode: exit.exitCode,
    durationMs: exit.durationMs,
    truncated: proc.output.truncated,
  });
}

function runBackground({ ctx, args, target, timeoutSec }: RunParams) {
  const cwd = target.cwd;
  const proc = ShellProcess.start({
    command: args.command,
    ...spawnFields(target),
    outputCap: ctx.limits.jobMaxOutputChars,
    pollCap: ctx.limits.pollMaxChars,
    timeoutMs: timeoutSec * 1000,
    killGraceMs: ctx.limits.killGraceMs,
    logger: ctx.logger,
  });
  const job = ctx.jobs.add({ scope: ctx.scope, command: args.command, cwd, process: proc });
  return textResult<ExecDetails>(
    `Started in the background as job ${job.id} (pid ${proc.pid ?? "?"}). Use the process tool with ` +
      `jobId "${job.id}": action "poll" for new output and status, "log" for the output so far, "kill" to stop it.`,
    { status: "running", cwd, jobId: job.id, ...(proc.pid ? { pid: proc.pid } : {}) },
  );
}

/** Creates the `exec` tool. */
export function createExecTool(ctx: ExecToolContext): AgentTool<typeof ExecParams, ExecDetails> {
  const defaultTimeout =
    ctx.timeoutSec && ctx.timeoutSec > 0 ? ctx.timeoutSec : ctx.limits.execTimeoutSec;
  const background = ctx.allowBackground !== false;
  return {
    name: "exec",
    label: "Exec",
    description:
      "Run a shell command in the workspace (or workdir). Returns the combined stdout/stderr (long output " +
      `keeps its start and end, ${ctx.limits.execMaxOutputChars} characters at most); a non-zero exit code ` +
      `is an error. Default timeout ${defaultTimeout} s.` +
      (background ? " Use background: true for long-running commands, then the process tool." : ""),
    parameters: ExecParams,
    prepareArguments: (raw) => {
      if (raw && typeof raw === "object" && "cmd" in raw && !("command" in raw)) {
        const { cmd, ...rest } = raw as Record<string, unknown>;
        return { ...rest, command: cmd } as ExecArgs;
      }
      return raw as ExecArgs;
    },
    async execute(_id, args, signal, onUpdate) {
      if (args.command.trim() === "") throw new ToolError("command must not be empty.");
      if (args.background && !background) {
        throw new ToolError(
          "background: true needs the process tool, which this agent's tool policy does not allow; run the command in the foreground.",
        );
      }
      const target = await chooseExecTarget(ctx, args);
      throwIfAborted(signal, "exec");
      const timeoutSec = args.timeout ?? defaultTimeout;
      if (args.background) return runBackground({ ctx, args, target, timeoutSec });
      return runForeground({ ctx, args, target, timeoutSec, signal, onUpdate });
    },
  };
}
