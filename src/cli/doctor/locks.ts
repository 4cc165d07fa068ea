// doctor's stale-lock check: the state-dir lock (`<stateDir>/gateway.lock`, `{pid, createdAt}`) and the
// config write lock (`<config>.lock` and its `.takeover`, `{pid, since}`) whose owner is gone. A live
// owner is fine; a dead pid, or a lock no one finished writing long ago, is stale. `--fix` removes a stale
// lock only if it is still the same file content doctor judged (a new owner's lock is never touched).
import { statSync, unlinkSync } from "node:fs";
import { configLockPath } from "../../config/index.js";
import { readTextIfExists } from "../../lib/read-if-exists.js";
import { isProcessAlive, stateDirLockPath } from "../../sessions/index.js";
import type { DoctorCheck, DoctorFinding } from "./finding.js";

/** An unreadable lock younger than this may still be being written by its creator (lock.ts: 10 s). */
const UNREADABLE_GRACE_MS = 10_000;

interface LockFile {
  path: string;
  /** What holds it, for messages. */
  what: string;
}

function ownerOf(text: string): { pid: number; since?: string; command?: string } | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value.pid !== "number") return undefined;
    const since =
      typeof value.createdAt === "string"
        ? value.createdAt
        : typeof value.since === "number"
          ? new Date(value.since).toISOString()
          : undefined;
    return {
      pid: value.pid,
      ...(since ? { since } : {}),
      ...(typeof value.command === "string" ? { command: value.command } : {}),
    };
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Removes `path` only while it still holds `text` (the stale content doctor reported). */
function removeIfUnchanged(path: string, text: string): void {
  if (readTextIfExists(path) !== text) {
    throw new Error(`${path} changed since it was checked (a new owner?); left in place`);
  }
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

function staleFinding(lock: LockFile, now: number): DoctorFinding | undefined {
  const text = readTextIfExists(lock.path);
  if (text === undefined) return undefined;
  const owner = ownerOf(text);
  let why: string;
  if (owner) {
    if (isProcessAlive(owner.pid)) return undefined;
    const by = owner.command ? ` (${owner.command})` : "";
    why = `its owner pid ${owner.pid}${by} is not running${owner.since ? ` (locked ${owner.since})` : ""}`;
  } else {
    const age = now - statSync(lock.path).mtimeMs;
    if (age < UNREADABLE_GRACE_MS) return undefined;
    why = `it names no owner and is ${Math.round(age / 1000)} s old`;
  }
  return {
    checkId: "locks",
    severity: "warning",
    message: `stale ${lock.what} ${lock.path}: ${why}`,
    path: lock.path,
    fixHint:
      "pincer doctor --fix removes it (Pincer also takes a dead owner's lock over by itself)",
    repair: { action: `remove ${lock.path}`, apply: () => removeIfUnchanged(lock.path, text) },
  };
}

/** Reports state-dir and config locks whose owner is gone. */
export const locksCheck: DoctorCheck = {
  id: "locks",
  detect: async ({ loaded, now }) => {
    const configLock = configLockPath(loaded.path);
    const locks: LockFile[] = [
      { path: stateDirLockPath(loaded.paths.stateDir), what: "state-dir lock" },
      { path: configLock, what: "config write lock" },
      { path: `${configLock}.takeover`, what: "config lock takeover" },
    ];
    return locks
      .map((lock) => staleFinding(lock, now()))
      .filter((finding): finding is DoctorFinding => finding !== undefined);
  },
};
