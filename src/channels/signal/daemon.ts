// The signal-cli daemon Pincer starts for an account (`autoStart`): `<cliPath> -a <account> daemon
// --http <host>:<port>` (with --ignore-attachments / --ignore-stories as configured), ready once
// `/api/v1/check` answers within `startupTimeoutMs`. A daemon that does not come up is killed and
// the start fails; one that exits later settles `exited`, so the account ends and the host's
// supervisor starts it (and a new daemon) again with backoff. `stop` sends SIGTERM, then SIGKILL
// after 5 s, and resolves once the process is gone.
import { type ChildProcess, spawn } from "node:child_process";
import { abortableSleep } from "../../lib/abortable-sleep.js";
import type { Logger } from "../index.js";
import type { SignalAccountSettings } from "./settings.js";

const KILL_GRACE_MS = 5_000;
const CHECK_INTERVAL_MS = 100;
/** Last stderr lines kept for error messages. */
const TAIL_LINES = 5;

/** A running daemon. */
export interface SignalDaemon {
  pid: number | undefined;
  /** Settles with the reason once the process exits on its own (never rejects). */
  exited: Promise<string>;
  stop(): Promise<void>;
}

/** Inputs of {@link startSignalDaemon}. */
export interface StartSignalDaemonParams {
  settings: SignalAccountSettings;
  log: Logger;
  signal: AbortSignal;
}

/** The argv of the daemon. */
export function signalDaemonArgs(settings: SignalAccountSettings): string[] {
  const daemon = settings.daemon!;
  const host = daemon.host.includes(":") ? `[${daemon.host}]` : daemon.host;
  return [
    ...(settings.account ? ["-a", settings.account] : []),
    "daemon",
    "--http",
    `${host}:${daemon.port}`,
    "--no-receive-stdout",
    ...(settings.ignoreAttachments ? ["--ignore-attachments"] : []),
    ...(settings.ignoreStories ? ["--ignore-stories"] : []),
  ];
}

async function checkOnce(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/v1/check`, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

function stopChild(child: ChildProcess, gone: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
  return gone.then(() => clearTimeout(timer));
}

/** Starts the daemon and waits until it answers; throws (the process killed) when it does not. */
export async function startSignalDaemon(params: StartSignalDaemonParams): Promise<SignalDaemon> {
  const { settings, log } = params;
  const daemon = settings.daemon!;
  const args = signalDaemonArgs(settings);
  log.info({ cliPath: daemon.cliPath, args }, "signal: starting signal-cli daemon");
  const child = spawn(daemon.cliPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split(/\r?\n/)) {
      if (line.trim() === "") continue;
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      log.debug({ line }, "signal-cli");
    }
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let stopping = false;
  const gone = new Promise<string>((resolve) => {
    child.once("error", (err) =>
      resolve(`signal-cli could not start (${daemon.cliPath}): ${err.message}`),
    );
    child.once("exit", (code, sig) => {
      const how = sig ? `signal ${sig}` : `code ${code}`;
      const last = tail.length > 0 ? `: ${tail.join(" | ")}` : "";
      resolve(`signal-cli daemon exited (${how})${last}`);
    });
  });
  let exitReason: string | undefined;
  void gone.then((reason) => {
    exitReason = reason;
  });
  const deadline = Date.now() + daemon.startupTimeoutMs;
  for (;;) {
    if (exitReason !== undefined) throw new Error(exitReason);
    if (params.signal.aborted) {
      await stopChild(child, gone);
      throw new Error("signal: stopped while the daemon was starting");
    }
    if (await checkOnce(settings.baseUrl)) break;
    if (Date.now() > deadline) {
      await stopChild(child, gone);
      throw new Error(
        `signal-cli daemon did not answer ${settings.baseUrl}/api/v1/check within ${daemon.startupTimeoutMs} ms (startupTimeoutMs)`,
      );
    }
    await abortableSleep(CHECK_INTERVAL_MS, params.signal);
  }
  log.info({ pid: child.pid, url: settings.baseUrl }, "signal: signal-cli daemon ready");
  return {
    pid: child.pid,
    exited: gone.then((reason) => (stopping ? "stopped" : reason)),
    async stop() {
      stopping = true;
      await stopChild(child, gone);
    },
  };
}
