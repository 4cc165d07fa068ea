import { spawnSync } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/temp-cleanup.js";
import {
  acquireWhatsAppAuthLock,
  readWhatsAppAuthLock,
  WhatsAppSessionLockedError,
  whatsAppAuthLockPath,
} from "./auth-lock.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("WhatsApp auth-dir lock", () => {
  it("refuses a second holder naming the auth dir and pid; takes over a dead pid's lock", () => {
    const dir = join(makeTempDir("pincer-wa-lock-"), "acct");
    const lock = acquireWhatsAppAuthLock({ authDir: dir, command: "gateway" });
    expect(mode(whatsAppAuthLockPath(dir))).toBe(0o600);
    expect(readWhatsAppAuthLock(dir)).toMatchObject({ pid: process.pid, command: "gateway" });
    let error: unknown;
    try {
      acquireWhatsAppAuthLock({ authDir: dir, command: "channels login" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(WhatsAppSessionLockedError);
    expect((error as Error).message).toContain(dir);
    expect((error as Error).message).toContain(`pid ${process.pid} (gateway)`);
    lock.release();
    expect(existsSync(whatsAppAuthLockPath(dir))).toBe(false);
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    writeFileSync(
      whatsAppAuthLockPath(dir),
      JSON.stringify({ pid: dead, createdAt: "2026-01-01T00:00:00.000Z" }),
    );
    const taken = acquireWhatsAppAuthLock({ authDir: dir, command: "gateway" });
    expect(readWhatsAppAuthLock(dir)?.pid).toBe(process.pid);
    taken.release();
  });

  it("refuses a lock held by another live process", () => {
    const dir = makeTempDir("pincer-wa-lock-");
    writeFileSync(
      whatsAppAuthLockPath(dir),
      JSON.stringify({
        pid: process.ppid,
        createdAt: "2026-01-01T00:00:00.000Z",
        command: "gateway",
      }),
    );
    expect(() => acquireWhatsAppAuthLock({ authDir: dir, command: "channels login" })).toThrow(
      new RegExp(`open by pid ${process.ppid} \\(gateway\\)`),
    );
  });
});
