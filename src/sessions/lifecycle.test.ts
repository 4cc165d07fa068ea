import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../lib/logger.js";
import { acquireStateDirLock } from "./lock.js";
import type { SessionMaintenanceConfig } from "./maintenance.js";
import { openSessionStore } from "./store.js";
import { backupPathFor } from "./store-file.js";

/** A logger collecting the warning messages (the store's info lines are not warnings). */
function warningsTo(warnings: string[]) {
  return createEntryLogger((entry) => {
    if (entry.level === "warn") warnings.push(entry.msg);
  });
}

const DAY = 86_400_000;
const T0 = Date.parse("2026-03-01T10:00:00.000Z");

function harness(maintenance?: SessionMaintenanceConfig) {
  const stateDir = makeTempDir("pincer-life-");
  const sessionsDir = join(stateDir, "agents", "main", "sessions");
  const storePath = join(sessionsDir, "sessions.json");
  mkdirSync(sessionsDir, { recursive: true });
  const clock = { now: T0 };
  const warnings: string[] = [];
  let n = 0;
  const lock = acquireStateDirLock({ stateDir });
  // Closed when the test ends, before its dir is removed (an open store writes on the next tick).
  const open = (withLock = true) =>
    closeWhenDone(
      openSessionStore({
        storePath,
        ...(withLock ? { lock } : {}),
        clock: { now: () => clock.now },
        ids: { sessionId: () => `sess-${++n}`, entryId: () => `e${++n}` },
        logger: warningsTo(warnings),
        scheduler: { setTimeout: () => 0, clearTimeout: () => {} },
        ...(maintenance ? { maintenance } : {}),
      }),
    );
  return { stateDir, sessionsDir, storePath, clock, warnings, open };
}

describe("reset and delete", () => {
  it("reset starts a new session and keeps the old transcript as <file>.reset.<ts>", () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:main", {
      lastChannel: "telegram",
      modelOverride: "openai/gpt-5",
    });
    store.update("agent:main:main", { inputTokens: 900, totalTokens: 5000, compactionCount: 2 });
    const t = store.openTranscript("agent:main:main", { cwd: "/ws" });
    t.appendMessage({ role: "user", content: "old" });
    h.clock.now = Date.parse("2026-03-02T11:22:33.456Z");
    const result = store.reset("agent:main:main");
    expect(result.archivedTranscript).toBe(
      join(h.sessionsDir, "sess-1.jsonl.reset.2026-03-02T11-22-33.456Z"),
    );
    expect(existsSync(result.archivedTranscript!)).toBe(true);
    expect(result.entry).toMatchObject({
      sessionId: "sess-3",
      sessionFile: join(h.sessionsDir, "sess-3.jsonl"),
      inputTokens: 0,
      totalTokens: 0,
      compactionCount: 0,
      lastChannel: "telegram",
      modelOverride: "openai/gpt-5",
      updatedAt: h.clock.now,
    });
    expect(store.readTranscript("agent:main:main")?.exists).toBe(false);
    expect(() => t.appendMessage({ role: "user", content: "late" })).toThrow(/is gone/);
  });

  it("delete removes the entry and archives the transcript as <file>.deleted.<ts>", async () => {
    const h = harness();
    const store = h.open();
    store.getOrCreate("agent:main:telegram:group:1");
    store.openTranscript("agent:main:telegram:group:1", { cwd: "/ws" });
    h.clock.now = Date.parse("2026-03-05T00:00:00.000Z");
    const removal = store.delete("agent:main:telegram:group:1");
    expect(removal?.archivedTranscript).toBe(
      join(h.sessionsDir, "sess-1.jsonl.deleted.2026-03-05T00-00-00.000Z"),
    );
    expect(store.delete("agent:main:telegram:group:1")).toBeUndefined();
    await store.flush();
    expect(h.open(false).has("agent:main:telegram:group:1")).toBe(false);
  });

  it("never archives a transcript outside the sessions dir", () => {
    const h = harness();
    const outside = join(h.stateDir, "elsewhere.jsonl");
    writeFileSync(outside, "");
    writeFileSync(
      h.storePath,
      JSON.stringify({ k: { sessionId: "x", updatedAt: T0, sessionFile: outside } }),
      { flag: "w" },
    );
    const store = h.open();
    expect(store.delete("k")?.archivedTranscript).toBeUndefined();
    expect(existsSync(outside)).toBe(true); // only `<sessionsDir>/elsewhere.jsonl` would be archived
  });
});

describe("cleanup (session.maintenance)", () => {
  it("prunes sessions idle longer than pruneAfter and archives their transcripts", () => {
    const h = harness({ pruneAfter: "7d" });
    const store = h.open();
    store.getOrCreate("old");
    store.openTranscript("old", { cwd: "/" });
    h.clock.now += 8 * DAY;
    store.getOrCreate("fresh");
    const report = store.cleanup();
    expect(report.pruned).toEqual([
      { key: "old", sessionId: "sess-1", updatedAt: T0, reason: "stale" },
    ]);
    expect(report.archivedTranscripts[0]).toMatch(/sess-1\.jsonl\.deleted\./);
    expect(store.list().map((row) => row.key)).toEqual(["fresh"]);
  });

  it("caps the count at maxEntries, dropping the least recently updated, but never pinned ones", () => {
    const h = harness({ maxEntries: 3 });
    const store = h.open();
    for (let i = 0; i < 6; i++) {
      store.getOrCreate(`s${i}`);
      h.clock.now += 1000;
    }
    store.annotate("s0", { pinnedAt: h.clock.now });
    const report = store.cleanup();
    expect(report.pruned.map((p) => [p.key, p.reason])).toEqual([
      ["s1", "over-limit"],
      ["s2", "over-limit"],
      ["s3", "over-limit"],
    ]);
    expect(store.list().map((row) => row.key)).toEqual(["s5", "s4", "s0"]);
  });

  it("removes archives older than the window and keeps newer ones", () => {
    const h = harness({ pruneAfter: "30d", resetArchiveRetention: "1d" });
    const store = h.open();
    const old = join(h.sessionsDir, "a.jsonl.deleted.2026-01-01T00-00-00.000Z");
    const recent = join(h.sessionsDir, "b.jsonl.deleted.2026-02-25T00-00-00.000Z");
    const oldReset = join(h.sessionsDir, "c.jsonl.reset.2026-02-27T00-00-00.000Z");
    for (const file of [old, recent, oldReset]) writeFileSync(file, "");
    const dry = store.cleanup({ dryRun: true });
    expect(dry.removedArchives.sort()).toEqual([old, oldReset].sort());
    expect(existsSync(old)).toBe(true);
    store.cleanup();
    expect(readdirSync(h.sessionsDir).sort()).toEqual(["b.jsonl.deleted.2026-02-25T00-00-00.000Z"]);
  });

  it("only reports in warn mode", () => {
    const h = harness({ mode: "warn", pruneAfter: "1h" });
    const store = h.open();
    store.getOrCreate("old");
    h.clock.now += 2 * 3_600_000;
    const report = store.cleanup();
    expect(report).toMatchObject({ dryRun: true, remaining: 0 });
    expect(store.has("old")).toBe(true);
    expect(h.warnings.some((w) => w.includes("would prune 1 sessions"))).toBe(true);
  });
});

describe("recovery of sessions.json", () => {
  it("recovers a corrupt file from its last good copy, with a warning, keeping the bad one aside", async () => {
    const h = harness();
    const first = h.open();
    first.getOrCreate("a");
    await first.snapshot();
    first.getOrCreate("b");
    await first.snapshot(); // sessions.json has a+b, .bak has a
    await first.close();
    writeFileSync(h.storePath, '{\n  "a": {\n    "sessionId": "sess-1",\n    "upda'); // half-written
    const second = h.open();
    expect(second.list().map((row) => row.key)).toEqual(["a"]);
    expect(
      h.warnings.some((w) => w.includes(`recovered 1 sessions from ${backupPathFor(h.storePath)}`)),
    ).toBe(true);
    const aside = readdirSync(h.sessionsDir).filter((name) => name.includes(".corrupt."));
    expect(aside).toHaveLength(1);
    expect(JSON.parse(readFileSync(h.storePath, "utf8"))).toHaveProperty("a");
  });

  it("starts empty (warning, no crash) when both copies are unusable", () => {
    const h = harness();
    writeFileSync(h.storePath, "garbage");
    writeFileSync(backupPathFor(h.storePath), "[]");
    const store = h.open(false);
    expect(store.size).toBe(0);
    expect(h.warnings.some((w) => w.includes("starting with an empty index"))).toBe(true);
  });
});
