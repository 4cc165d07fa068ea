// The group-commit bookkeeping of StorePersistence against a real temp dir: a change recorded while a
// sync is in flight is never counted as synced before it is appended (the bug that froze a gateway
// under a 1,000-message burst: `commit` spun on a flush that had nothing left to do).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../lib/logger.js";
import { createSessionEntry } from "./entry.js";
import { StorePersistence } from "./store-persistence.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pincer-persistence-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A persistence whose snapshots never run (the test drives every write itself). */
function openPersistence(): StorePersistence {
  const persistence = new StorePersistence({
    storePath: join(dir, "sessions.json"),
    readOnly: false,
    clock: { now: () => 1_000 },
    logger: silentLogger,
    scheduler: { setTimeout: () => undefined, clearTimeout: () => undefined },
    snapshotIntervalMs: 60_000,
    capture: () => [],
  });
  persistence.load();
  return persistence;
}

function entry(id: string) {
  return createSessionEntry({ sessionId: id, sessionsDir: dir, now: 1_000 });
}

/** A transcript stand-in whose fsync resolves when the test says so. */
function gatedSyncer() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { syncer: { sync: () => gate }, open };
}

describe("StorePersistence group commit", () => {
  it("does not count a change recorded during an in-flight sync as synced before it is appended", async () => {
    const persistence = openPersistence();
    const { syncer, open } = gatedSyncer();
    persistence.record("a", entry("a"));
    await persistence.flush(); // the journal exists and is synced: sync #1 below waits only for the gate
    persistence.noteWrite(join(dir, "a.jsonl"), false, syncer);
    const first = persistence.flush(); // sync #1 in flight, held by the transcript's fsync
    persistence.record("b", entry("b"));
    const second = persistence.flush(); // appends b, then waits for sync #1 and starts sync #2
    open();
    persistence.record("c", entry("c")); // its journal append waits for setImmediate
    await Promise.all([first, second]);
    await new Promise((resolve) => setImmediate(resolve));
    await persistence.flush();
    expect(persistence.isDurable("b")).toBe(true);
    // Before the fix, sync #2 counted c as synced while c was still pending: c never became
    // durable, and `commit("c")` looped on flush forever.
    expect(persistence.isDurable("c")).toBe(true);
    await persistence.commit("c");
    await persistence.close();
  });

  it("commit waits for a change recorded in the same turn and makes it durable", async () => {
    const persistence = openPersistence();
    persistence.record("k", entry("k"));
    expect(persistence.isDurable("k")).toBe(false);
    await persistence.commit("k");
    expect(persistence.isDurable("k")).toBe(true);
    await persistence.close();
  });
});
