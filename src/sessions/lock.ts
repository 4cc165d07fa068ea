// One process owns a state dir: `<stateDir>/gateway.lock`, created exclusively, holds `{pid, createdAt}`.
// A lock whose pid is dead is stale and taken over; a live one makes acquisition fail with a clear error.
// The lock file itself is `src/lib/pid-lock.ts`'s.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../lib/logger.js";
import {
  describePidLockHolder,
  type PidLockInfo,
  readPidLock,
  tryAcquirePidLock,
} from "../lib/pid-lock.js";
import { type Clock, systemClock } from "./types.js";

export { isProcessAlive } from "../lib/pid-lock.js";

/** File name of the state-dir lock. */
export const STATE_DIR_LOCK_FILE = "gateway.lock";

/** Contents of the lock file. */
export type StateDirLockInfo = PidLockInfo;

/** A held lock; `release` removes the file only if it is still ours. */
export interface StateDirLock {
  readonly path: string;
  readonly stateDir: string;
  readonly info: StateDirLockInfo;
  release(): void;
}

/** Raised when another live process holds the lock. */
export class StateDirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: StateDirLockInfo | undefined,
  ) {
    super(`state dir is locked by ${describePidLockHolder(holder)}: ${lockPath}`);
    this.name = "StateDirLockedError";
  }
}

/** Path of the lock file of a state dir. */
export function stateDirLockPath(stateDir: string): string {
  return join(stateDir, STATE_DIR_LOCK_FILE);
}

/** Reads who holds a state dir's lock, if anyone (the file may be stale). */
export function readStateDirLock(stateDir: string): StateDirLockInfo | undefined {
  return readPidLock(stateDirLockPath(stateDir));
}

/** Inputs for {@link acquireStateDirLock}. */
export interface AcquireStateDirLockParams {
  stateDir: string;
  command?: string;
  clock?: Clock;
  logger?: Logger;
  /** Our pid (default `process.pid`). */
  pid?: number;
  /** Liveness probe (default {@link isProcessAlive}). */
  isAlive?: (pid: number) => boolean;
}

/**
 * Takes `<stateDir>/gateway.lock`, taking over a stale one (dead pid, or unreadable and older than 10 s).
 * Throws {@link StateDirLockedError} when a live process holds it (our own pid counts as live).
 */
export function acquireStateDirLock(params: AcquireStateDirLockParams): StateDirLock {
  const clock = params.clock ?? systemClock;
  const path = stateDirLockPath(params.stateDir);
  const info: StateDirLockInfo = {
    pid: params.pid ?? process.pid,
    createdAt: new Date(clock.now()).toISOString(),
    ...(params.command ? { command: params.command } : {}),
  };
  mkdirSync(params.stateDir, { recursive: true, mode: 0o700 });
  const attempt = tryAcquirePidLock({
    path,
    info,
    now: () => clock.now(),
    ...(params.logger ? { logger: params.logger } : {}),
    ...(params.isAlive ? { isAlive: params.isAlive } : {}),
  });
  if (!attempt.ok) throw new StateDirLockedError(path, attempt.holder);
  const { lock } = attempt;
  return { path, stateDir: params.stateDir, info, release: () => lock.release() };
}
