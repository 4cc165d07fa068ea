// One shell command as a child process in its own process group: output captured in an OutputBuffer,
// an optional timeout, and stop() that signals the whole group (SIGTERM, then SIGKILL after a grace).
import { type ChildProcess, spawn } from "node:child_process";
import type { Logger } from "../../lib/logger.js";
import { OutputBuffer } from "./output-buffer.js";
import { errnoCode, errorMessage } from "./types.js";

/** How a command ended. */
export interface ShellExit {
  /** Exit code, or null when it was ended by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** True when stop() ended it (kill, abort or timeout). */
  stopped: boolean;
  /** Set when the process could not be started. */
  error?: string;
  durationMs: number;
}

/** Inputs of {@link ShellProcess.start}. */
export interface StartShellParams {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Characters of output kept (head + tail). */
  outputCap: number;
  /** Characters of not-yet-polled output kept. */
  pollCap?: number;
  /** Stop the command after this many ms (0 or undefined: no timeout). */
  timeoutMs?: number;
  killGraceMs: number;
  onOutput?: (chunk: string) => void;
  logger?: Logger;
  now?: () => number;
  /** Spawn this host argv instead of the platform shell running `command` (a sandbox's client). */
  argv?: string[];
  /** Also stops the command where the process group cannot reach it (inside a container). */
  stopInside?: (signal: NodeJS.Signals) => Promise<void>;
}

const IS_WINDOWS = process.platform === "win32";
/** Time allowed between the shell's exit and its pipes closing (a grandchild may hold them open). */
const CLOSE_GRACE_MS = 500;
/** setTimeout's largest delay (~24.8 days); longer timeouts are clamped to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A running (or finished) shell command. */
export class ShellProcess {
  readonly output: OutputBuffer;
  readonly startedAt: number;
  readonly done: Promise<ShellExit>;
  /** Set once the command has ended. */
  exit: ShellExit | undefined;
  private timedOut = false;
  private stopped = false;
  private resolveDone!: (exit: ShellExit) => void;
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly params: StartShellParams,
  ) {
    const now = params.now ?? Date.now;
    this.startedAt = now();
    this.output = new OutputBuffer(params.outputCap, params.pollCap);
    this.done = new Promise((resolveDone) => {
      this.resolveDone = resolveDone;
    });
    const finish = (fields: Pick<ShellExit, "exitCode" | "signal" | "error">) => {
      if (this.exit) return;
      if (this.timer) clearTimeout(this.timer);
      this.exit = {
        ...fields,
        timedOut: this.timedOut,
        stopped: this.stopped,
        durationMs: now() - this.startedAt,
      };
      this.resolveDone(this.exit);
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding("utf8");
      stream?.on("data", (chunk: string) => {
        this.output.append(chunk);
        params.onOutput?.(chunk);
      });
    }
    child.on("error", (err) => finish({ exitCode: null, signal: null, error: errorMessage(err) }));
    child.on("close", (code, signal) => finish({ exitCode: code, signal }));
    child.on("exit", (code, signal) => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ exitCode: code, signal });
      }, CLOSE_GRACE_MS).unref();
    });
    if (params.timeoutMs && params.timeoutMs > 0) {
      this.timer = setTimeout(
        () => {
          this.timedOut = true;
          this.stop();
        },
        Math.min(params.timeoutMs, MAX_TIMER_MS),
      );
      this.timer.unref();
    }
  }

  /** Spawns `command` through the platform shell in `cwd`. Never throws: a spawn failure ends `done`. */
  static start(params: StartShellParams): ShellProcess {
    const [shell, args] = params.argv?.[0]
      ? [params.argv[0], params.argv.slice(1)]
      : IS_WINDOWS
        ? [process.env.ComSpec ?? "cmd.exe", ["/d", "/s", "/c", params.command]]
        : ["/bin/sh", ["-c", params.command]];
    const child = spawn(shell, args, {
      cwd: params.cwd,
      env: params.env,
      detached: !IS_WINDOWS,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
    return new ShellProcess(child, params);
  }

  /** Process id of the shell (and of its process group). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True until the command has ended. */
  get running(): boolean {
    return this.exit === undefined;
  }

  /** Ends the command and everything it started: SIGTERM to the group, SIGKILL after the grace. */
  stop(): void {
    if (this.exit) return;
    this.stopped = true;
    this.signalGroup("SIGTERM");
    setTimeout(() => this.signalGroup("SIGKILL"), this.params.killGraceMs).unref();
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const inside = this.params.stopInside;
    // Never rejects by contract; the catch only guards a broken implementation.
    if (inside)
      void inside(signal).catch((err) =>
        this.params.logger?.warn(`exec: stop inside the sandbox failed: ${errorMessage(err)}`),
      );
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      if (IS_WINDOWS) this.child.kill(signal);
      else process.kill(-pid, signal);
    } catch (err) {
      if (errnoCode(err) === "ESRCH") return;
      this.params.logger?.warn(
        `exec: ${signal} to process group ${pid} failed: ${errorMessage(err)}`,
      );
      this.child.kill(signal);
    }
  }
}
