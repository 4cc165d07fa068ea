import { appendFileSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";

function openStore(openTranscripts?: number) {
  const stateDir = makeTempDir("pincer-tcache-");
  const lock = acquireStateDirLock({ stateDir });
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  // Closed before its dir is removed: its background snapshot (a real 5 s timer) would otherwise
  // fire during a later file of the same worker and recreate the dir.
  return closeWhenDone(
    openSessionStore({
      storePath,
      lock,
      ...(openTranscripts ? { openTranscripts } : {}),
    }),
  );
}

function lines(file: string): Array<Record<string, unknown>> {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("the store's open transcripts", () => {
  it("hands the same parsed transcript to the next turn while the file is unchanged", () => {
    const store = openStore();
    store.getOrCreate("a");
    const first = store.openTranscript("a", { cwd: "/ws" });
    first.appendMessage({ role: "user", content: "one" });
    const second = store.openTranscript("a", { cwd: "/ws" });
    expect(second).toBe(first);
    second.appendMessage({ role: "assistant", content: "two" });
    expect(lines(second.file).map((l) => l.type)).toEqual(["session", "message", "message"]);
  });

  it("re-reads the file after an outside append or an in-place rewrite of the same size", () => {
    const store = openStore();
    store.getOrCreate("a");
    const first = store.openTranscript("a", { cwd: "/ws" });
    const entry = first.appendMessage({ role: "user", content: "one" });
    const outside = { ...entry, id: "outside1", parentId: entry.id };
    appendFileSync(first.file, `${JSON.stringify(outside)}\n`);
    const second = store.openTranscript("a", { cwd: "/ws" });
    expect(second).not.toBe(first);
    expect(second.entries.map((e) => e.id)).toEqual([entry.id, "outside1"]);

    // Same bytes count, different text, a different mtime: still noticed.
    const text = readFileSync(second.file, "utf8").replace('"one"', '"ONE"');
    writeFileSync(second.file, text);
    utimesSync(second.file, new Date(), new Date(Date.now() + 5_000));
    const third = store.openTranscript("a", { cwd: "/ws" });
    expect(third).not.toBe(second);
    expect(JSON.stringify(third.entries)).toContain('"ONE"');
  });

  it("keeps at most `openTranscripts` open; a released one still appends (per line)", async () => {
    const store = openStore(1);
    store.getOrCreate("a");
    store.getOrCreate("b");
    const a = store.openTranscript("a", { cwd: "/ws" });
    const b = store.openTranscript("b", { cwd: "/ws" });
    a.appendMessage({ role: "user", content: "after release" });
    b.appendMessage({ role: "user", content: "kept" });
    await store.flush();
    expect(lines(a.file).at(-1)).toMatchObject({ message: { content: "after release" } });
    expect(lines(b.file).at(-1)).toMatchObject({ message: { content: "kept" } });
    expect(store.openTranscript("a", { cwd: "/ws" })).not.toBe(a);
  });

  it("closes a session's kept transcript when the session is reset", () => {
    const store = openStore();
    store.getOrCreate("a");
    const old = store.openTranscript("a", { cwd: "/ws" });
    old.appendMessage({ role: "user", content: "old" });
    store.reset("a");
    expect(() => old.appendMessage({ role: "user", content: "late" })).toThrow(/is gone/);
    const fresh = store.openTranscript("a", { cwd: "/ws" });
    expect(fresh).not.toBe(old);
    expect(fresh.entries).toHaveLength(0);
  });
});
