// Stopping an unsupervised gateway: the pid in `<stateDir>/gateway.lock` gets SIGTERM (the gateway
// then drains runs and releases the lock) and we wait for the process to exit. Outcomes are values.
import { isProcessAlive, readStateDirLock, stateDirLockPath } from "../sessions/index.js";

/** What {@link stopGatewayByLock} found or did. */
export type LockStopResult =
  | { status: "stopped"; pid: number }
  | { status: "not-running"; lockPath: string }
  | { status: "not-a-gateway"; pid: number; command: string }
  | { status: "timeout"; pid: number; waitedMs: number }
  | { status: "signal-failed"; pid: number; error: string };

/** Inputs of {@link stopGatewayByLock}; everything but the state dir has a default. */
export interface LockStopParams {
  stateDir: string;
  /** How long to wait for the exit (default 30 s: the gateway drains runs for up to 10 s). */
  timeoutMs?: number;
  pollMs?: number;
  isAlive?: (pid: number) => boolean;
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The gateway's pid from the lock, when a live gateway holds it. */
export function findRunningGatewayPid(
  stateDir: string,
  isAlive: (pid: number) => boolean = isProcessAlive,
): number | undefined {
  const info = readStateDirLock(stateDir);
  if (!info || !isAlive(info.pid)) return undefined;
  return info.command === undefined || info.command === "gateway" ? info.pid : undefined;
}

/** Sends SIGTERM to the lock's gateway pid and waits for it to exit. */
export async function stopGatewayByLock(params: LockStopParams): Promise<LockStopResult> {
  const isAlive = params.isAlive ?? isProcessAlive;
  const kill = params.kill ?? ((pid, signal) => process.kill(pid, signal));
  const sleep = params.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = params.now ?? Date.now;
  const info = readStateDirLock(params.stateDir);
  if (!info || !isAlive(info.pid)) {
    return { status: "not-running", lockPath: stateDirLockPath(params.stateDir) };
  }
  if (info.command !== undefined && info.command !== "gateway") {
    return { status: "not-a-gateway", pid: info.pid, command: info.command };
  }
  try {
    kill(info.pid, "SIGTERM");
  } catch (err) {
    return { status: "signal-failed", pid: info.pid, error: String(err) };
  }
  const timeoutMs = params.timeoutMs ?? 30_000;
  const started = now();
  while (isAlive(info.pid)) {
    if (now() - started >= timeoutMs) {
      return { status: "timeout", pid: info.pid, waitedMs: now() - started };
    }
    await sleep(params.pollMs ?? 50);
  }
  return { status: "stopped", pid: info.pid };
}
