// No orphan transcripts: at the moment a new transcript file exists on disk, the index on disk (what a
// restart after a crash right then would load: sessions.json plus its journal) already points to it.
// The "crash" is a second, read-only store opened in the same tick, before any deferred write runs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";

function harness() {
  const stateDir = makeTempDir("pincer-orphan-");
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  const lock = acquireStateDirLock({ stateDir });
  // Released when the test ends, after its stores are closed (cleanups run in reverse order).
  closeWhenDone({ close: () => lock.release() });
  const manual = { setTimeout: () => 0, clearTimeout: () => {} };
  return {
    // Closed (before the dir goes) when the test ends: an open store writes on the next tick.
    open: () => closeWhenDone(openSessionStore({ storePath, lock, scheduler: manual })),
    /** What a process starting right now would load. */
    afterCrash: () => openSessionStore({ storePath }),
  };
}

describe("new transcripts are indexed first", () => {
  it("a new session's index entry is on disk when its transcript file appears", () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:peer-1");
    const transcript = store.openTranscript("agent:main:peer-1", { cwd: "/tmp" });
    expect(existsSync(transcript.file)).toBe(true);
    const seen = h.afterCrash();
    expect(seen.get("agent:main:peer-1")?.sessionId).toBe(
      store.get("agent:main:peer-1")?.sessionId,
    );
    expect(seen.transcriptPath("agent:main:peer-1")).toBe(transcript.file);
  });

  it("a reset session's new id is on disk before its new transcript is created", async () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:main");
    store.openTranscript("agent:main:main", { cwd: "/tmp" }).appendMessage({
      role: "user",
      content: "before the reset",
    });
    await store.flush();
    const { entry } = store.reset("agent:main:main");
    const transcript = store.openTranscript("agent:main:main", { cwd: "/tmp" });
    expect(transcript.header.id).toBe(entry.sessionId);
    expect(h.afterCrash().get("agent:main:main")?.sessionId).toBe(entry.sessionId);
  });

  it("reopening an existing transcript writes nothing early", () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:main");
    store.openTranscript("agent:main:main", { cwd: "/tmp" });
    const before = store.stats().journalWrites;
    store.update("agent:main:main", { label: "x" });
    store.openTranscript("agent:main:main", { cwd: "/tmp" });
    expect(store.stats().journalWrites).toBe(before);
  });

  it("the run path waits for the new entry's fsync off the event loop, then creates the file", async () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:peer-2");
    const file = store.transcriptPath("agent:main:peer-2")!;
    const opening = store.openTranscriptAsync("agent:main:peer-2", { cwd: "/tmp" });
    // Nothing blocked: the file is not there until the journal's fsync has completed.
    expect(existsSync(file)).toBe(false);
    const transcript = await opening;
    expect(transcript.file).toBe(file);
    expect(existsSync(file)).toBe(true);
    expect(h.afterCrash().transcriptPath("agent:main:peer-2")).toBe(file);
    expect(store.stats().blockingSyncs).toBe(0);
    expect(store.stats().fsyncBatches).toBeGreaterThan(0);
  });

  it("a key already durable creates its transcript with no fsync and no early write of other keys", async () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:durable");
    await store.flush();
    store.getOrCreate("agent:main:other");
    store.update("agent:main:durable", { label: "unrelated" });
    await store.flush();
    store.update("agent:main:other", { label: "still pending" });
    const before = store.stats();
    const transcript = store.openTranscript("agent:main:durable", { cwd: "/tmp" });
    expect(existsSync(transcript.file)).toBe(true);
    expect(store.stats().journalWrites).toBe(before.journalWrites);
    expect(store.stats().blockingSyncs).toBe(0);
    expect(h.afterCrash().transcriptPath("agent:main:durable")).toBe(transcript.file);
  });

  it("a key changed since its last fsync is made durable before its transcript appears", () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:fresh");
    const transcript = store.openTranscript("agent:main:fresh", { cwd: "/tmp" });
    expect(existsSync(transcript.file)).toBe(true);
    expect(store.stats().blockingSyncs).toBe(1);
    expect(h.afterCrash().transcriptPath("agent:main:fresh")).toBe(transcript.file);
  });
});
