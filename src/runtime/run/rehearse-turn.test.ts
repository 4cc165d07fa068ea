// The sweep of rehearsal temp dirs a killed gateway left behind: removed when their lock's process
// is gone or when they never got a lock (after a grace period); kept while their gateway lives,
// while young, and when they are not rehearsal dirs.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireStateDirLock } from "../../sessions/index.js";
import { REHEARSAL_DIR_PREFIX, sweepStaleRehearsals } from "./rehearse-turn.js";

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "pincer-sweep-"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function rehearsalDir(name: string, lockPid?: number): string {
  const dir = join(base, `${REHEARSAL_DIR_PREFIX}${name}`);
  mkdirSync(join(dir, "workspace"), { recursive: true });
  if (lockPid !== undefined) acquireStateDirLock({ stateDir: dir, pid: lockPid });
  return dir;
}

describe("sweepStaleRehearsals", () => {
  it("removes the dirs of dead gateways and old unlocked ones, and keeps the rest", () => {
    const exited = spawnSync(process.execPath, ["-e", "0"]).pid;
    const dead = rehearsalDir("dead", exited);
    const live = rehearsalDir("live", process.pid);
    const young = rehearsalDir("young");
    const old = rehearsalDir("old");
    const longAgo = new Date(Date.now() - 5 * 60_000);
    utimesSync(old, longAgo, longAgo);
    const other = join(base, "not-a-rehearsal");
    mkdirSync(other);
    utimesSync(other, longAgo, longAgo);

    expect(sweepStaleRehearsals({ base, now: Date.now() })).toBe(2);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it("does nothing when the base cannot be listed", () => {
    expect(sweepStaleRehearsals({ base: join(base, "missing"), now: Date.now() })).toBe(0);
  });
});
