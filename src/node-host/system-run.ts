// `system.run` on the node: argv (no shell), the node's OWN exec policy first (`--allow`: the
// executables it may start, by bare name on its PATH or by real path; `*` allows any; nothing
// else runs), then a spawn bounded by a timeout (the process group is killed) and output caps. The
// environment is the node's, plus the caller's `env` except PATH and loader variables.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { isInside, type NodeCommandError } from "./roots.js";
import { whichExecutable } from "./which.js";

/** Command timeout on the node when the call gives none. */
export const DEFAULT_RUN_TIMEOUT_MS = 30_000;
/** Largest command timeout a call may ask for (10 min). */
export const MAX_RUN_TIMEOUT_MS = 600_000;
/** Bytes of stdout and of stderr kept (each); the rest is dropped and `truncated` set. */
export const RUN_OUTPUT_CAP_BYTES = 200_000;

/** The node's exec policy: allowed executables (`*` = any) and the roots a cwd must be in. */
export interface NodeExecPolicy {
  allow: readonly string[];
  roots: readonly string[];
  env: Record<string, string | undefined>;
}

/** OpenClaw's `system.run` result. */
export interface RunResult {
  exitCode: number | null;
  timedOut: boolean;
  success: boolean;
  stdout: string;
  stderr: string;
  error: string | null;
  truncated: boolean;
}

/** The params `system.run` takes (OpenClaw's names). */
export interface SystemRunParams {
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

const refused = (message: string): { ok: false; error: NodeCommandError } => ({
  ok: false,
  error: { code: "PERMISSION_DENIED", message },
});

const RISKY_ENV = /^(PATH|LD_.*|DYLD_.*|NODE_OPTIONS)$/;

/** Checks argv against the node's policy; the executable's real path to run, or a refusal. */
export async function authorizeRun(
  policy: NodeExecPolicy,
  params: SystemRunParams,
): Promise<{ ok: true; executable: string } | { ok: false; error: NodeCommandError }> {
  const name = params.command[0] ?? "";
  const risky = Object.keys(params.env ?? {}).find((key) => RISKY_ENV.test(key));
  if (risky) return refused(`system.run may not override ${risky} on this node`);
  const cwd = params.cwd ? resolve(params.cwd) : undefined;
  if (cwd && policy.roots.length > 0 && !policy.roots.some((r) => isInside(r, cwd))) {
    return refused(`cwd ${params.cwd} is outside the node's roots`);
  }
  const executable = await whichExecutable(name, policy.env.PATH);
  if (!executable)
    return { ok: false, error: { code: "NOT_FOUND", message: `${name}: not found on the node` } };
  const allowed = policy.allow.some((entry) =>
    entry === "*" ? true : entry.includes("/") ? entry === executable : entry === name,
  );
  if (!allowed) {
    return refused(
      `${name} is not allowed on this node (node run --allow lists what it may run: ${policy.allow.join(", ") || "nothing"})`,
    );
  }
  return { ok: true, executable };
}

/** Keeps the first `RUN_OUTPUT_CAP_BYTES` of a stream. */
class CappedText {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  push(chunk: Buffer): void {
    const room = RUN_OUTPUT_CAP_BYTES - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** Runs an authorized argv; never rejects (a spawn failure is `error`); `signal` (the node host
 *  stopping) kills it like a timeout. */
export function runCommand(params: {
  executable: string;
  run: SystemRunParams;
  policy: NodeExecPolicy;
  signal?: AbortSignal;
}): Promise<RunResult> {
  const { run, policy } = params;
  const timeoutMs = Math.min(run.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS, MAX_RUN_TIMEOUT_MS);
  const stdout = new CappedText();
  const stderr = new CappedText();
  if (params.signal?.aborted) {
    return Promise.resolve({
      exitCode: null,
      timedOut: false,
      success: false,
      stdout: "",
      stderr: "",
      error: "the node host is stopping; not started",
      truncated: false,
    });
  }
  return new Promise((resolve) => {
    let timedOut = false;
    let spawnError: string | null = null;
    const child = spawn(params.executable, run.command.slice(1), {
      cwd: run.cwd ?? policy.roots[0] ?? process.cwd(),
      env: { ...policy.env, ...(run.env ?? {}) },
      stdio: ["ignore", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    const kill = () => {
      try {
        if (child.pid && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch (err) {
        // Already gone: nothing left to stop.
        if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, timeoutMs);
    params.signal?.addEventListener("abort", kill, { once: true });
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (err) => {
      spawnError = err.message;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      params.signal?.removeEventListener("abort", kill);
      resolve({
        exitCode: code,
        timedOut,
        success: code === 0 && !timedOut && spawnError === null,
        stdout: stdout.text(),
        stderr: stderr.text(),
        error: spawnError,
        truncated: stdout.truncated || stderr.truncated,
      });
    });
  });
}
