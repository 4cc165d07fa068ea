// Every write of the config file goes through here, so two writers (CLI processes, the gateway's
// config.* methods) never lose each other's changes: an inter-process lock file next to the config
// (O_EXCL create holding pid + time; a lock whose pid is dead is taken over; bounded wait with a clear
// error) and a compare-and-swap on the file's hash (read + hash, compute the new text, then under the lock
// re-check the hash before the atomic write; a changed file is re-read and the edit recomputed, or
// refused when the caller named the hash it expects).
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";
import type { ConfigIssue } from "./config-issue.js";

/** The config file as read for a write: its text, whether it exists, and the hash of its bytes. */
export interface ConfigSnapshot {
  path: string;
  exists: boolean;
  text: string;
  /** sha256 hex of the file's bytes; `""` when the file does not exist. */
  hash: string;
}

/** What a write computes from a snapshot: the new text, or why there is none. */
export type ComputedWrite = { ok: true; text: string } | { ok: false; issues: ConfigIssue[] };

/** Outcome of a write: written (with the backup of the old file and the new hash), or why not. */
export type CommitResult =
  | { ok: true; hash: string; backupPath?: string; snapshot: ConfigSnapshot }
  | { ok: false; reason: "invalid"; issues: ConfigIssue[] }
  | { ok: false; reason: "stale"; currentHash: string; message: string }
  | { ok: false; reason: "locked"; message: string };

/** Inputs of {@link commitConfigWrite}. */
export interface CommitParams {
  configPath: string;
  /** Computes the new text from the current file (pure: may run again when the file changed). */
  compute: (snapshot: ConfigSnapshot) => ComputedWrite;
  /** The hash the caller read (`""` = "the file must not exist"); a different file is refused. */
  baseHash?: string;
  /** How long to wait for another writer's lock (default 15 s). */
  lockTimeoutMs?: number;
  /** Keep the previous file as `<config>.bak` (default true). */
  backup?: boolean;
}

const DEFAULT_LOCK_TIMEOUT_MS = 15_000;
const POLL_MS = 10;
/** A lock file with no readable owner yet (its writer died between create and write) counts as stale
 * after this long. */
const UNOWNED_STALE_MS = 2_000;

/** sha256 hex of bytes: the `hash` / `baseHash` of config writes. (node:crypto is loaded on first use:
 * importing it costs every CLI start-up several milliseconds.) */
export function hashConfigBytes(bytes: Uint8Array | string): string {
  const crypto = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

/** Reads the config file for a write (a missing file is an empty snapshot with hash `""`). */
export function readConfigSnapshot(path: string): ConfigSnapshot {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { path, exists: false, text: "", hash: "" };
    throw err;
  }
  return { path, exists: true, text: bytes.toString("utf8"), hash: hashConfigBytes(bytes) };
}

/** Hash of the config file's current bytes (`""` when missing). */
export function configFileHash(path: string): string {
  return readConfigSnapshot(path).hash;
}

/** Where the lock of a config file lives. */
export function configLockPath(configPath: string): string {
  return `${configPath}.lock`;
}

interface LockOwner {
  pid: number;
  since: number;
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockOwner>;
    return typeof owner.pid === "number" ? { pid: owner.pid, since: owner.since ?? 0 } : undefined;
  } catch {
    // Missing (just released) or half-written (its writer is between create and write): no owner yet.
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function lockAgeMs(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

/** Removes a stale lock, serialized by a short-lived takeover lock so two waiters never both remove
 * (one of them a fresh lock the other just created). */
function takeOverStale(lockPath: string, stale: LockOwner | undefined): void {
  const takeover = `${lockPath}.takeover`;
  let fd: number;
  try {
    fd = openSync(takeover, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const owner = readOwner(takeover);
    if (owner ? !pidAlive(owner.pid) : lockAgeMs(takeover) > UNOWNED_STALE_MS)
      rmSync(takeover, { force: true });
    return;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, since: Date.now() }));
    const now = readOwner(lockPath);
    const same = stale ? now?.pid === stale.pid && now.since === stale.since : now === undefined;
    if (same) rmSync(lockPath, { force: true });
  } finally {
    closeSync(fd);
    rmSync(takeover, { force: true });
  }
}

/** One attempt at the lock: true when taken; a stale lock (dead pid) is cleared for the next try. */
function tryLock(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const owner = readOwner(lockPath);
    const stale = owner ? !pidAlive(owner.pid) : lockAgeMs(lockPath) > UNOWNED_STALE_MS;
    if (stale) takeOverStale(lockPath, owner);
    return false;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, since: Date.now() }));
  } finally {
    closeSync(fd);
  }
  return true;
}

function lockedMessage(lockPath: string, waitedMs: number): string {
  const owner = readOwner(lockPath);
  const who = owner ? `process ${owner.pid}` : "another writer";
  return `the config is being written by ${who} (lock ${lockPath}); waited ${Math.round(waitedMs / 1000)} s. Retry; if no pincer process is writing it, remove the lock file`;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Under the lock: re-check the hash, recompute if the file changed, back up, write atomically. */
function commitLocked(params: CommitParams, planned: Planned): CommitResult {
  let { snapshot, text } = planned;
  const now = readConfigSnapshot(params.configPath);
  if (now.hash !== snapshot.hash) {
    if (params.baseHash !== undefined) return staleResult(now.hash);
    // Another writer got in first: redo the edit on its result (we hold the lock, so this one sticks).
    const again = params.compute(now);
    if (!again.ok) return { ok: false, reason: "invalid", issues: again.issues };
    snapshot = now;
    text = again.text;
  }
  let backupPath: string | undefined;
  if (snapshot.exists && params.backup !== false) {
    backupPath = `${params.configPath}.bak`;
    writeFileAtomic(backupPath, snapshot.text, { mode: 0o600 });
  }
  writeFileAtomic(params.configPath, text, { mode: 0o600 });
  const hash = hashConfigBytes(Buffer.from(text, "utf8"));
  return { ok: true, hash, snapshot, ...(backupPath ? { backupPath } : {}) };
}

function staleResult(currentHash: string): CommitResult {
  return {
    ok: false,
    reason: "stale",
    currentHash,
    message: "the config changed since it was read; read it again and retry",
  };
}

interface Planned {
  snapshot: ConfigSnapshot;
  text: string;
}

/** Reads, checks the expected hash and computes the new text outside the lock. */
function plan(params: CommitParams): { planned: Planned } | { refused: CommitResult } {
  const snapshot = readConfigSnapshot(params.configPath);
  if (params.baseHash !== undefined && params.baseHash !== snapshot.hash)
    return { refused: staleResult(snapshot.hash) };
  const computed = params.compute(snapshot);
  if (!computed.ok) return { refused: { ok: false, reason: "invalid", issues: computed.issues } };
  return { planned: { snapshot, text: computed.text } };
}

/** The steps of a locked write: yields each poll delay while the lock is held elsewhere. */
function* commitSteps(params: CommitParams): Generator<number, CommitResult> {
  const first = plan(params);
  if ("refused" in first) return first.refused;
  const lockPath = configLockPath(params.configPath);
  mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  const timeout = params.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const started = Date.now();
  while (!tryLock(lockPath)) {
    if (Date.now() - started > timeout)
      return { ok: false, reason: "locked", message: lockedMessage(lockPath, timeout) };
    yield POLL_MS;
  }
  try {
    return commitLocked(params, first.planned);
  } finally {
    rmSync(lockPath, { force: true });
  }
}

/** Writes the config with the lock held and the hash compared (blocks the thread while waiting: CLI). */
export function commitConfigWrite(params: CommitParams): CommitResult {
  const steps = commitSteps(params);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    sleepSync(step.value);
  }
}

/** {@link commitConfigWrite} that waits for the lock without blocking the event loop (gateway). */
export async function commitConfigWriteAsync(params: CommitParams): Promise<CommitResult> {
  const steps = commitSteps(params);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise((resolve) => setTimeout(resolve, step.value));
  }
}
