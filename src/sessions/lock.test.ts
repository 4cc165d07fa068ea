import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../lib/logger.js";
import {
  acquireStateDirLock,
  isProcessAlive,
  readStateDirLock,
  StateDirLockedError,
  stateDirLockPath,
} from "./lock.js";

/** A logger collecting the warning messages (the store's info lines are not warnings). */
function warningsTo(warnings: string[]) {
  return createEntryLogger((entry) => {
    if (entry.level === "warn") warnings.push(entry.msg);
  });
}

function tempStateDir(): string {
  return makeTempDir("pincer-lock-");
}

/** The pid of a child that has already exited: surely dead (recycling it this fast is implausible). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  expect(child.status).toBe(0);
  expect(isProcessAlive(child.pid!)).toBe(false);
  return child.pid!;
}

describe("state-dir lock", () => {
  it("creates gateway.lock with {pid, createdAt} (0600) and removes it on release", () => {
    const stateDir = tempStateDir();
    const lock = acquireStateDirLock({ stateDir, command: "gateway" });
    const path = stateDirLockPath(stateDir);
    expect(lock.path).toBe(path);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      pid: process.pid,
      createdAt: expect.any(String),
      command: "gateway",
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    lock.release();
    expect(existsSync(path)).toBe(false);
    lock.release(); // idempotent
  });

  it("refuses while a live process holds it, naming the holder", () => {
    const stateDir = tempStateDir();
    writeFileSync(
      stateDirLockPath(stateDir),
      JSON.stringify({
        pid: process.pid,
        createdAt: "2026-03-01T10:00:00.000Z",
        command: "gateway",
      }),
    );
    let error: unknown;
    try {
      acquireStateDirLock({ stateDir });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StateDirLockedError);
    expect((error as Error).message).toContain(`pid ${process.pid} (gateway) since 2026-03-01`);
    expect(readStateDirLock(stateDir)?.pid).toBe(process.pid);
  });

  it("takes over a stale lock left by a dead pid, with a warning", () => {
    const stateDir = tempStateDir();
    const dead = deadPid();
    writeFileSync(
      stateDirLockPath(stateDir),
      JSON.stringify({ pid: dead, createdAt: "2026-01-01T00:00:00.000Z" }),
    );
    const warnings: string[] = [];
    const lock = acquireStateDirLock({ stateDir, logger: warningsTo(warnings) });
    expect(readStateDirLock(stateDir)?.pid).toBe(process.pid);
    expect(warnings[0]).toContain(`stale lock`);
    expect(warnings[0]).toContain(`pid ${dead}`);
    lock.release();
  });

  it("waits out an unreadable lock (maybe being written) but takes over an old one", () => {
    const stateDir = tempStateDir();
    writeFileSync(stateDirLockPath(stateDir), "");
    expect(() => acquireStateDirLock({ stateDir })).toThrow(StateDirLockedError);
    const later = { now: () => Date.now() + 60_000 };
    const lock = acquireStateDirLock({ stateDir, clock: later });
    expect(readStateDirLock(stateDir)?.pid).toBe(process.pid);
    lock.release();
  });

  it("release leaves a lock that is no longer ours alone", () => {
    const stateDir = tempStateDir();
    const lock = acquireStateDirLock({ stateDir });
    const other = JSON.stringify({ pid: 1, createdAt: "x" });
    writeFileSync(stateDirLockPath(stateDir), other);
    lock.release();
    expect(readFileSync(stateDirLockPath(stateDir), "utf8")).toBe(other);
  });
});
