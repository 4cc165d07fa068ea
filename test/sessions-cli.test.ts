// `pincer sessions …` through the real command tree: a store written the way the gateway will write
// it (lock, create, transcript, close) is listed, shown, reset and deleted from the CLI.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireStateDirLock, openSessionStore } from "../src/sessions/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";

async function seed(stateDir: string) {
  const lock = acquireStateDirLock({ stateDir });
  const store = openSessionStore({
    storePath: join(stateDir, "agents", "main", "sessions", "sessions.json"),
    lock,
  });
  for (const key of ["agent:main:main", "agent:main:telegram:group:-100123"]) {
    store.getOrCreate(key, { chatType: key.includes(":group:") ? "group" : "direct" });
    const transcript = store.openTranscript(key, { cwd: "/ws" });
    transcript.appendMessage({ role: "user", content: `hello from ${key}` });
  }
  await store.close();
  lock.release();
}

describe("pincer sessions (wired)", () => {
  it("lists, shows, resets and deletes sessions", async () => {
    const sb = createCliSandbox();
    await seed(sb.stateDir);
    const listed = JSON.parse((await sb.run(["sessions", "--json"])).stdout);
    const keys = JSON.stringify(listed);
    expect(keys).toContain("agent:main:main");
    expect(keys).toContain("agent:main:telegram:group:-100123");

    const shown = await sb.run(["sessions", "show", "main", "--tail", "5"]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("hello from agent:main:main");

    expect((await sb.run(["sessions", "reset", "main"])).code).toBe(0);
    const dir = join(sb.stateDir, "agents", "main", "sessions");
    expect(readdirSync(dir).some((name) => name.includes(".jsonl.reset."))).toBe(true);

    expect((await sb.run(["sessions", "delete", "agent:main:telegram:group:-100123"])).code).toBe(
      0,
    );
    expect(readdirSync(dir).some((name) => name.includes(".jsonl.deleted."))).toBe(true);
    const after = JSON.stringify(JSON.parse((await sb.run(["sessions", "list", "--json"])).stdout));
    expect(after).not.toContain("telegram:group");
    expect(existsSync(join(dir, "sessions.json"))).toBe(true);
  });

  it("refuses to change sessions while a live process holds the state dir", async () => {
    const sb = createCliSandbox();
    await seed(sb.stateDir);
    const lock = acquireStateDirLock({ stateDir: sb.stateDir, command: "gateway" });
    try {
      const res = await sb.run(["sessions", "reset", "main"]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("locked by pid");
      expect((await sb.run(["sessions", "list"])).code).toBe(0);
    } finally {
      lock.release();
    }
  });
});
