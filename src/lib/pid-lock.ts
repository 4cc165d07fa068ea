// An exclusive lock file naming its holder: created with O_EXCL, holding `{pid, createdAt, command?}`.
// A lock whose pid is dead (or that is unreadable and older than 10 s) is stale and taken over; a
// live one is refused with the holder. The state-dir lock and the WhatsApp auth-dir lock are two
// uses of it.
import { closeSync, fsyncSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { type Logger, silentLogger } from "./logger.js";
import { readTextIfExists } from "./read-if-exists.js";

/** An unreadable lock younger than this may still be being written by its creator. */
const UNREADABLE_GRACE_MS = 10_000;

/** Contents of a lock file. */
export interface PidLockInfo {
  pid: number;
  createdAt: string;
  /** What took the lock (`gateway`, `channels login`, …), for error messages. */
  command?: string;
}

/** A held lock; `release` removes the file only if it is still ours. */
export interface PidLock {
  readonly path: string;
  readonly info: PidLockInfo;
  release(): void;
}

/** What {@link tryAcquirePidLock} gave: the lock, or who holds it (undefined: a lock still being
 *  written, or one that kept changing under us). */
export type PidLockAttempt =
  | { ok: true; lock: PidLock }
  | { ok: false; holder: PidLockInfo | undefined };

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

/** The holder in a lock file's text; undefined when it is not a lock record. */
export function parsePidLockInfo(text: string): PidLockInfo | undefined {
  try {
    const value = JSON.parse(text) as Partial<PidLockInfo>;
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

/** Who holds the lock at `path`, if anyone (the file may be stale). */
export function readPidLock(path: string): PidLockInfo | undefined {
  const text = readTextIfExists(path);
  return text === undefined ? undefined : parsePidLockInfo(text);
}

/** "pid 123 (gateway) since <iso>", or a note that the lock is still being written. */
export function describePidLockHolder(holder: PidLockInfo | undefined): string {
  return holder
    ? `pid ${holder.pid}${holder.command ? ` (${holder.command})` : ""} since ${holder.createdAt}`
    : "a process that is still writing the lock file";
}

/** Inputs for {@link tryAcquirePidLock}; the lock file's directory must exist. */
export interface AcquirePidLockParams {
  path: string;
  info: PidLockInfo;
  now?: () => number;
  logger?: Logger;
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

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/**
 * Takes the lock at `path`, taking over a stale one (dead pid, or unreadable and older than 10 s).
 * A live holder (our own pid counts as live: one process opens a lock once) is returned, not thrown.
 */
export function tryAcquirePidLock(params: AcquirePidLockParams): PidLockAttempt {
  const now = params.now ?? Date.now;
  const logger = params.logger ?? silentLogger;
  const isAlive = params.isAlive ?? isProcessAlive;
  const { path, info } = params;
  const text = `${JSON.stringify(info)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(path, text)) return { ok: true, lock: heldLock(path, info, text) };
    const existing = readTextIfExists(path);
    if (existing === undefined) continue; // released meanwhile: try again
    const holder = parsePidLockInfo(existing);
    if (holder ? isAlive(holder.pid) : ageMs(path, now()) < UNREADABLE_GRACE_MS) {
      return { ok: false, holder };
    }
    logger.warn(
      holder
        ? `taking over stale lock ${path} of pid ${holder.pid} (not running; created ${holder.createdAt})`
        : `taking over unreadable lock ${path}`,
    );
    // Remove it only if nobody replaced it since we read it; then race for exclusive create again.
    if (readTextIfExists(path) === existing) unlinkSafe(path);
  }
  return { ok: false, holder: readPidLock(path) };
}

function heldLock(path: string, info: PidLockInfo, text: string): PidLock {
  let released = false;
  return {
    path,
    info,
    release: () => {
      if (released) return;
      released = true;
      if (readTextIfExists(path) === text) unlinkSafe(path);
    },
  };
}
