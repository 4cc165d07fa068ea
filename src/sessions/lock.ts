// One process owns a state dir: `<stateDir>/gateway.lock`, created exclusively, holds `{pid, createdAt}`.
// A lock whose pid is dead is stale and taken over; a live one makes acquisition fail with a clear error.

import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { type Logger, silentLogger } from "../lib/logger.js";
import { readTextIfExists } from "../lib/read-if-exists.js";
import { type Clock, systemClock } from "./types.js";

/** File name of the state-dir lock. */
export const STATE_DIR_LOCK_FILE = "gateway.lock";
/** An unreadable lock younger than this may still be being written by its creator. */
const UNREADABLE_GRACE_MS = 10_000;

/** Contents of the lock file. */
export interface StateDirLockInfo {
  pid: number;
  createdAt: string;
  /** What took the lock (`gateway`, `sessions reset`, …), for error messages. */
  command?: string;
}

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
    const who = holder
      ? `pid ${holder.pid}${holder.command ? ` (${holder.command})` : ""} since ${holder.createdAt}`
      : "a process that is still writing the lock file";
    super(`state dir is locked by ${who}: ${lockPath}`);
    this.name = "StateDirLockedError";
  }
}

/** True when a process with this pid exists (EPERM means it exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Path of the lock file of a state dir. */
export function stateDirLockPath(stateDir: string): string {
  return join(stateDir, STATE_DIR_LOCK_FILE);
}

function parseLockInfo(text: string): StateDirLockInfo | undefined {
  try {
    const value = JSON.parse(text) as Partial<StateDirLockInfo>;
    if (typeof value.pid !== "number" || typeof value.createdAt !== "string") return undefined;
    return {
      pid: value.pid,
      createdAt: value.createdAt,
      ...(typeof value.command === "string" ? { command: value.command } : {}),
    };
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Reads who holds a state dir's lock, if anyone (the file may be stale). */
export function readStateDirLock(stateDir: string): StateDirLockInfo | undefined {
  const text = readTextIfExists(stateDirLockPath(stateDir));
  return text === undefined ? undefined : parseLockInfo(text);
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

function tryCreate(path: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function ageMs(path: string, now: number): number {
  try {
    return now - statSync(path).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
}

/**
 * Takes `<stateDir>/gateway.lock`, taking over a stale one (dead pid, or unreadable and older than 10 s).
 * Throws {@link StateDirLockedError} when a live process holds it (our own pid counts as live).
 */
export function acquireStateDirLock(params: AcquireStateDirLockParams): StateDirLock {
  const clock = params.clock ?? systemClock;
  const logger = params.logger ?? silentLogger;
  const isAlive = params.isAlive ?? isProcessAlive;
  const path = stateDirLockPath(params.stateDir);
  const info: StateDirLockInfo = {
    pid: params.pid ?? process.pid,
    createdAt: new Date(clock.now()).toISOString(),
    ...(params.command ? { command: params.command } : {}),
  };
  const text = `${JSON.stringify(info)}\n`;
  mkdirSync(params.stateDir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path, text)) return heldLock({ path, stateDir: params.stateDir, info, text });
    const existing = readTextIfExists(path);
    if (existing === undefined) continue; // released meanwhile: try again
    const holder = parseLockInfo(existing);
    if (holder ? isAlive(holder.pid) : ageMs(path, clock.now()) < UNREADABLE_GRACE_MS) {
      throw new StateDirLockedError(path, holder);
    }
    logger.warn(
      holder
        ? `taking over stale lock ${path} of pid ${holder.pid} (not running; created ${holder.createdAt})`
        : `taking over unreadable lock ${path}`,
    );
    // Remove it only if nobody replaced it since we read it; then race for exclusive create again.
    if (readTextIfExists(path) === existing) unlinkSafe(path);
  }
  throw new StateDirLockedError(path, readStateDirLock(params.stateDir));
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

function heldLock(params: {
  path: string;
  stateDir: string;
  info: StateDirLockInfo;
  text: string;
}): StateDirLock {
  let released = false;
  return {
    path: params.path,
    stateDir: params.stateDir,
    info: params.info,
    release: () => {
      if (released) return;
      released = true;
      if (readTextIfExists(params.path) === params.text) unlinkSafe(params.path);
    },
  };
}
