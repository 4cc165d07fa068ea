import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import {
  commitConfigWrite,
  commitConfigWriteAsync,
  configLockPath,
  hashConfigBytes,
  readConfigSnapshot,
} from "./write-lock.js";

function setup(text = "{ a: 1 }\n") {
  const dir = makeTempDir("pincer-lock-");
  const configPath = join(dir, "openclaw.json");
  writeFileSync(configPath, text);
  return { dir, configPath, read: () => readFileSync(configPath, "utf8") };
}

/** The pid of a process that has exited (so it is certainly not alive). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

const append = (suffix: string) => (snapshot: { text: string }) => ({
  ok: true as const,
  text: `${snapshot.text}${suffix}`,
});

describe("config write lock", () => {
  it("writes under the lock, keeps a backup, and releases the lock", () => {
    const { configPath, read } = setup();
    const result = commitConfigWrite({ configPath, compute: append("// b\n") });
    expect(result).toMatchObject({ ok: true, backupPath: `${configPath}.bak` });
    expect(read()).toBe("{ a: 1 }\n// b\n");
    expect(readFileSync(`${configPath}.bak`, "utf8")).toBe("{ a: 1 }\n");
    expect(result.ok && result.hash).toBe(hashConfigBytes(read()));
    expect(existsSync(configLockPath(configPath))).toBe(false);
  });

  it("takes over a lock left by a dead process", () => {
    const { configPath, read } = setup();
    writeFileSync(configLockPath(configPath), JSON.stringify({ pid: deadPid(), since: 1 }));
    expect(commitConfigWrite({ configPath, compute: append("// b\n") }).ok).toBe(true);
    expect(read()).toContain("// b");
    expect(existsSync(configLockPath(configPath))).toBe(false);
  });

  it("waits a bounded time for a live holder, then refuses with a clear error", async () => {
    const { configPath, read } = setup();
    writeFileSync(configLockPath(configPath), JSON.stringify({ pid: process.pid, since: 1 }));
    const sync = commitConfigWrite({ configPath, compute: append("x"), lockTimeoutMs: 30 });
    expect(sync).toMatchObject({ ok: false, reason: "locked" });
    expect(!sync.ok && "message" in sync && sync.message).toMatch(
      new RegExp(`process ${process.pid}.*${configLockPath(configPath)}`),
    );
    const later = await commitConfigWriteAsync({
      configPath,
      compute: append("x"),
      lockTimeoutMs: 30,
    });
    expect(later).toMatchObject({ ok: false, reason: "locked" });
    expect(read()).toBe("{ a: 1 }\n");
  });

  it("refuses a stale baseHash and recomputes when the file changed under a plain edit", () => {
    const { configPath, read } = setup();
    const { hash } = readConfigSnapshot(configPath);
    expect(
      commitConfigWrite({ configPath, baseHash: "0".repeat(64), compute: append("x") }),
    ).toMatchObject({ ok: false, reason: "stale" });
    // Another writer (not using the lock) changes the file while this edit is being computed.
    let calls = 0;
    const result = commitConfigWrite({
      configPath,
      compute: (snapshot) => {
        calls++;
        if (calls === 1) writeFileSync(configPath, "{ a: 2 }\n");
        return { ok: true, text: `${snapshot.text}// mine\n` };
      },
    });
    expect(result.ok).toBe(true);
    expect(calls).toBe(2);
    expect(read()).toBe("{ a: 2 }\n// mine\n");
    // With a baseHash the same race is refused instead of recomputed.
    writeFileSync(configPath, "{ a: 1 }\n");
    const based = commitConfigWrite({
      configPath,
      baseHash: hash,
      compute: (snapshot) => {
        writeFileSync(configPath, "{ a: 3 }\n");
        return { ok: true, text: `${snapshot.text}// mine\n` };
      },
    });
    expect(based).toMatchObject({ ok: false, reason: "stale" });
    expect(read()).toBe("{ a: 3 }\n");
  });

  it('expects no file when baseHash is ""', () => {
    const dir = makeTempDir("pincer-lock-");
    const configPath = join(dir, "openclaw.json");
    expect(commitConfigWrite({ configPath, baseHash: "", compute: append("{}\n") })).toMatchObject({
      ok: true,
    });
    expect(commitConfigWrite({ configPath, baseHash: "", compute: append("{}\n") })).toMatchObject({
      ok: false,
      reason: "stale",
    });
    expect(readFileSync(configPath, "utf8")).toBe("{}\n");
  });
});
