import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../lib/logger.js";
import { journalPathFor } from "./journal.js";
import { acquireStateDirLock, type StateDirLock } from "./lock.js";
import { openSessionStore, type SessionStore } from "./store.js";
import { SessionStoreReadOnlyError } from "./types.js";

/** A logger collecting the warning messages (the store's info lines are not warnings). */
function warningsTo(warnings: string[]) {
  return createEntryLogger((entry) => {
    if (entry.level === "warn") warnings.push(entry.msg);
  });
}

/** A temp state dir with a held lock, a settable clock, counting ids and a manual snapshot timer. */
function storeHarness() {
  const stateDir = makeTempDir("pincer-store-");
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  let n = 0;
  const timers: Array<() => void> = [];
  const warnings: string[] = [];
  const lock: StateDirLock = acquireStateDirLock({ stateDir });
  const common = {
    storePath,
    clock: { now: () => now },
    ids: {
      sessionId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
      entryId: () => (++n).toString(16).padStart(8, "0"),
    },
    logger: warningsTo(warnings),
    scheduler: {
      setTimeout: (fn: () => void) => timers.push(fn),
      clearTimeout: () => {},
    },
  };
  return {
    stateDir,
    storePath,
    warnings,
    lock,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    // Closed when the test ends (before its dir is removed): an open store's coalesced write would
    // otherwise land after the removal and recreate the dir.
    open: (): SessionStore => closeWhenDone(openSessionStore({ ...common, lock })),
    openReadOnly: (): SessionStore => openSessionStore(common),
    fireTimers: () => {
      for (const fn of timers.splice(0)) fn();
    },
  };
}

describe("session store index", () => {
  it("creates a session on first message with OpenClaw's fields", () => {
    const h = storeHarness();
    const store = h.open();
    const { entry, created } = store.getOrCreate("agent:main:main", {
      chatType: "direct",
      origin: { provider: "telegram", from: "telegram:42" },
      lastChannel: "telegram",
      lastTo: "42",
      lastAccountId: "default",
    });
    expect(created).toBe(true);
    expect(entry).toMatchObject({
      sessionId: "00000000-0000-4000-8000-000000000001",
      updatedAt: h.now(),
      sessionFile: join(store.sessionsDir, "00000000-0000-4000-8000-000000000001.jsonl"),
      chatType: "direct",
      lastChannel: "telegram",
      inputTokens: 0,
      compactionCount: 0,
    });
    expect(store.getOrCreate("agent:main:main").created).toBe(false);
  });

  it("lists newest first, filters by activity, limit and agent, and reorders on update", () => {
    const h = storeHarness();
    const store = h.open();
    for (const key of ["agent:main:a", "agent:main:b", "agent:work:c", "global"]) {
      store.getOrCreate(key);
      h.advance(10 * 60_000);
    }
    expect(store.list().map((row) => row.key)).toEqual([
      "global",
      "agent:work:c",
      "agent:main:b",
      "agent:main:a",
    ]);
    store.update("agent:main:a", { inputTokens: 5 });
    expect(store.list({ limit: 2 }).map((row) => row.key)).toEqual(["agent:main:a", "global"]);
    expect(store.list({ activeMinutes: 15 }).map((row) => row.key)).toEqual([
      "agent:main:a",
      "global",
    ]);
    expect(store.list({ agentId: "main" }).map((row) => row.key)).toEqual([
      "agent:main:a",
      "global",
      "agent:main:b",
    ]);
    // An explicit older updatedAt moves the entry back to its place.
    store.update("agent:main:a", { updatedAt: 0 });
    expect(store.list().at(-1)?.key).toBe("agent:main:a");
  });

  it("keeps newest-first order when sessions arrive with out-of-order times", () => {
    const h = storeHarness();
    const store = h.open();
    const base = h.now();
    const times = Array.from({ length: 500 }, (_, i) => base - ((i * 7919) % 500) * 1000);
    times.forEach((at, i) => {
      store.getOrCreate(`k${i}`);
      store.update(`k${i}`, { updatedAt: at });
    });
    store.delete("k3");
    const listed = store.list().map((row) => row.entry.updatedAt);
    expect(listed).toHaveLength(499);
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    expect(store.list({ limit: 1 })[0]?.entry.updatedAt).toBe(Math.max(...times));
  });

  it("removes fields patched to undefined and can annotate without touching updatedAt", () => {
    const h = storeHarness();
    const store = h.open();
    store.getOrCreate("k", { modelOverride: "openai/gpt-5" });
    h.advance(1000);
    const entry = store.annotate("k", { modelOverride: undefined });
    expect("modelOverride" in entry).toBe(false);
    expect(entry.updatedAt).toBe(h.now() - 1000);
    expect(() => store.update("k", { sessionId: undefined })).toThrow(/sessionId/);
  });

  it("is read-only without the lock", () => {
    const h = storeHarness();
    const store = h.openReadOnly();
    expect(() => store.getOrCreate("k")).toThrow(SessionStoreReadOnlyError);
    expect(store.size).toBe(0);
  });
});

describe("session store durability", () => {
  it("coalesces a burst of updates into one journal write and one snapshot", async () => {
    const h = storeHarness();
    const store = h.open();
    for (let i = 0; i < 200; i++) {
      store.getOrCreate(`agent:main:s${i % 20}`);
      store.update(`agent:main:s${i % 20}`, { inputTokens: i });
    }
    await store.flush();
    expect(store.stats()).toMatchObject({
      journalWrites: 1,
      journalRecords: 20,
      snapshotWrites: 0,
    });
    expect(existsSync(h.storePath)).toBe(false);
    h.fireTimers();
    await store.snapshot(); // joins the one the timer started
    expect(store.stats().snapshotWrites).toBe(1);
    const text = readFileSync(h.storePath, "utf8");
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toHaveLength(20);
    expect(text).toBe(JSON.stringify(parsed, null, 2));
    expect(statSync(h.storePath).mode & 0o777).toBe(0o600);
  });

  it("makes flushed changes durable without a snapshot (a crash after flush loses nothing)", async () => {
    const h = storeHarness();
    const store = h.open();
    store.getOrCreate("agent:main:main", { lastChannel: "telegram" });
    store.update("agent:main:main", { totalTokens: 1234 });
    await store.flush();
    // No close: simulate a crash, then read the store as another process would.
    const reader = h.openReadOnly();
    expect(reader.get("agent:main:main")).toMatchObject({
      totalTokens: 1234,
      lastChannel: "telegram",
    });
    expect(existsSync(h.storePath)).toBe(false);
    expect(existsSync(journalPathFor(h.storePath))).toBe(true);
  });

  it("shares one fsync between concurrent flushes (group commit)", async () => {
    const h = storeHarness();
    const store = h.open();
    store.getOrCreate("a");
    await Promise.all([store.flush(), store.flush(), store.flush()]);
    expect(store.stats().fsyncBatches).toBe(1);
    await store.flush(); // nothing new: no fsync
    expect(store.stats().fsyncBatches).toBe(1);
  });

  it("keeps changes made while a snapshot is being written", async () => {
    const h = storeHarness();
    const store = h.open();
    store.getOrCreate("a");
    const snapshot = store.snapshot();
    store.getOrCreate("b");
    await snapshot;
    await store.flush();
    const onDisk = JSON.parse(readFileSync(h.storePath, "utf8"));
    expect(Object.keys(onDisk)).toEqual(["a"]);
    const reader = h.openReadOnly();
    expect(reader.has("a") && reader.has("b")).toBe(true);
  });

  it("close writes a self-contained sessions.json and removes the journal", async () => {
    const h = storeHarness();
    const store = h.open();
    store.getOrCreate("a");
    await store.close();
    expect(existsSync(journalPathFor(h.storePath))).toBe(false);
    expect(Object.keys(JSON.parse(readFileSync(h.storePath, "utf8")))).toEqual(["a"]);
    expect(() => store.getOrCreate("b")).toThrow(/closed/);
    const again = h.open();
    expect(again.has("a")).toBe(true);
  });

  it("fsyncs transcripts appended through the store on flush", async () => {
    const h = storeHarness();
    const store = h.open();
    store.getOrCreate("a");
    const transcript = store.openTranscript("a", { cwd: "/ws" });
    transcript.appendMessage({ role: "user", content: "hello" });
    await store.flush();
    expect(store.stats().fsyncBatches).toBe(1);
    expect(store.readTranscript("a")?.entries).toHaveLength(1);
  });

  it("replays a journal with a torn tail, warns, and appends after it cleanly", async () => {
    const h = storeHarness();
    const first = h.open();
    first.getOrCreate("a");
    await first.flush();
    writeFileSync(journalPathFor(h.storePath), '{"k":"b","e":{"sessi', { flag: "a" });
    const second = h.open();
    expect(second.has("a")).toBe(true);
    expect(h.warnings.some((w) => w.includes("incomplete last line"))).toBe(true);
    second.getOrCreate("c");
    await second.flush();
    const third = h.openReadOnly();
    expect(
      third
        .list()
        .map((row) => row.key)
        .sort(),
    ).toEqual(["a", "c"]);
  });
});
