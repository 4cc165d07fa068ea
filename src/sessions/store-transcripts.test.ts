// Opening a session's transcript turn after turn: a cached, unchanged file is reused without the
// symlink-following lookup; a file changed or swapped on disk is looked up (and checked) again.
import {
  appendFileSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";

const KEY = "agent:main:main";

function openStore() {
  const stateDir = makeTempDir("pincer-store-transcripts-");
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  const lock = acquireStateDirLock({ stateDir });
  closeWhenDone({ close: () => lock.release() });
  const manual = { setTimeout: () => 0, clearTimeout: () => {} };
  const store = closeWhenDone(openSessionStore({ storePath, lock, scheduler: manual }));
  store.getOrCreate(KEY);
  return store;
}

describe("store transcripts", () => {
  it("reopens a cached transcript without looking its file up again", async () => {
    const store = openStore();
    const first = await store.openTranscriptAsync(KEY, { cwd: "/w" });
    first.appendMessage({ role: "user", content: "one" });
    store.update(KEY, { label: "touched" });
    expect(store.openTranscript(KEY, { cwd: "/w" })).toBe(first);
    expect(await store.openTranscriptAsync(KEY, { cwd: "/w" })).toBe(first);
    expect(store.stats().transcriptLookups).toBe(1);
  });

  it("looks a transcript changed by someone else up again and reads what was added", () => {
    const store = openStore();
    const first = store.openTranscript(KEY, { cwd: "/w" });
    const line = { type: "custom", id: "outside1", parentId: null, timestamp: "", data: 1 };
    appendFileSync(first.file, `${JSON.stringify(line)}\n`);
    const second = store.openTranscript(KEY, { cwd: "/w" });
    expect(second).not.toBe(first);
    expect(second.entries.map((entry) => entry.id)).toContain("outside1");
    expect(store.stats().transcriptLookups).toBe(2);
  });

  it("does not follow an open transcript swapped for a link out of the sessions dir", async () => {
    const store = openStore();
    const transcript = await store.openTranscriptAsync(KEY, { cwd: "/w" });
    const outside = join(makeTempDir("pincer-outside-"), "target.jsonl");
    writeFileSync(outside, readFileSync(transcript.file));
    renameSync(transcript.file, `${transcript.file}.moved`);
    symlinkSync(outside, transcript.file);
    expect(() => store.openTranscript(KEY, { cwd: "/w" })).toThrow(/unsafe/);
    await expect(store.openTranscriptAsync(KEY, { cwd: "/w" })).rejects.toThrow(/unsafe/);
  });

  it("creates a new transcript off the loop: one header, no temp file left, appends on disk", async () => {
    const store = openStore();
    const [first, second] = await Promise.all([
      store.openTranscriptAsync(KEY, { cwd: "/w" }),
      store.openTranscriptAsync(KEY, { cwd: "/w" }),
    ]);
    expect(second).toBe(first);
    first.appendMessage({ role: "user", content: "one" });
    const lines = readFileSync(first.file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((line) => line.type)).toEqual(["session", "message"]);
    expect(readdirSync(dirname(first.file)).filter((name) => name.includes(".creating"))).toEqual(
      [],
    );
    // Kept open with its stamp: the next open is the same object, without another lookup.
    const lookups = store.stats().transcriptLookups;
    expect(await store.openTranscriptAsync(KEY, { cwd: "/w" })).toBe(first);
    expect(store.stats().transcriptLookups).toBe(lookups);
    await store.flush();
  });

  it("a transcript a blocking open created meanwhile wins over the one being created", async () => {
    const store = openStore();
    const pending = store.openTranscriptAsync(KEY, { cwd: "/w" });
    const blocking = store.openTranscript(KEY, { cwd: "/w" });
    blocking.appendMessage({ role: "user", content: "first" });
    const opened = await pending;
    opened.appendMessage({ role: "user", content: "second" });
    const lines = readFileSync(blocking.file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((line) => line.type)).toEqual(["session", "message", "message"]);
    expect(lines.slice(1).map((line) => line.message.content)).toEqual(["first", "second"]);
  });
});
