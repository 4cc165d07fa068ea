import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closeWhenDone, makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock } from "./lock.js";
import { openSessionStore } from "./store.js";
import { openTranscript, type Transcript } from "./transcript.js";
import { TranscriptCache } from "./transcript-cache.js";

const clock = { now: () => Date.UTC(2026, 0, 1) };
const FILLER = "x".repeat(1000);

/** A kept-open transcript in a temp dir holding `messages` messages of about 1 KB each. */
function transcriptWith(dir: string, name: string, messages: number): Transcript {
  const transcript = openTranscript({
    file: join(dir, `${name}.jsonl`),
    sessionId: name,
    cwd: "/ws",
    clock,
    keepOpen: true,
  });
  for (let i = 0; i < messages; i++) transcript.appendMessage({ role: "user", content: FILLER });
  return transcript;
}

function openStore(openTranscriptBytes: number) {
  const stateDir = makeTempDir("pincer-tcache-bytes-");
  const lock = acquireStateDirLock({ stateDir });
  const storePath = join(stateDir, "agents", "main", "sessions", "sessions.json");
  return closeWhenDone(openSessionStore({ storePath, lock, openTranscriptBytes }));
}

function messageContents(file: string): unknown[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((line) => line.type === "message")
    .map((line) => line.message.content);
}

describe("the open transcripts' byte budget", () => {
  it("releases the least recently used transcripts once their files exceed the budget", () => {
    const dir = makeTempDir("pincer-tcache-bytes-");
    const a = transcriptWith(dir, "a", 10);
    const b = transcriptWith(dir, "b", 10);
    const c = transcriptWith(dir, "c", 10);
    const one = a.byteSize;
    expect(one).toBeGreaterThan(10_000);
    const cache = new TranscriptCache({ bytes: 2.5 * one });
    cache.keep(a);
    cache.keep(b);
    expect(cache.take(a.file)).toBe(a); // a is now the most recent, b the least
    cache.keep(c);
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBeLessThanOrEqual(2.5 * one);
    expect(cache.take(b.file)).toBeUndefined();
    expect(cache.take(a.file)).toBe(a);
    expect(cache.take(c.file)).toBe(c);
    cache.clear();
  });

  it("counts what was appended since a transcript was kept", () => {
    const dir = makeTempDir("pincer-tcache-bytes-");
    const a = transcriptWith(dir, "a", 1);
    const b = transcriptWith(dir, "b", 1);
    const cache = new TranscriptCache({ bytes: 20_000 });
    cache.keep(a);
    cache.keep(b);
    expect(cache.size).toBe(2);
    for (let i = 0; i < 25; i++) b.appendMessage({ role: "user", content: FILLER });
    expect(cache.take(b.file)).toBe(b);
    expect(cache.take(a.file)).toBeUndefined();
    // The most recent one stays even alone over the budget (a turn never re-reads its own file).
    expect(cache.size).toBe(1);
    expect(cache.take(b.file)).toBe(b);
    cache.clear();
  });

  it("re-reads an evicted session in full: every message on disk and in its next branch", async () => {
    const store = openStore(15_000);
    store.getOrCreate("a");
    store.getOrCreate("b");
    const a = store.openTranscript("a", { cwd: "/ws" });
    const written: string[] = [];
    for (let i = 0; i < 20; i++) {
      written.push(`a${i} ${FILLER}`);
      a.appendMessage({ role: i % 2 ? "assistant" : "user", content: written.at(-1) });
    }
    const b = store.openTranscript("b", { cwd: "/ws" });
    // A turn still holding the released object keeps appending (by path).
    written.push("late");
    a.appendMessage({ role: "user", content: "late" });
    b.appendMessage({ role: "user", content: "b0" });
    await store.flush();
    const reopened = store.openTranscript("a", { cwd: "/ws" });
    expect(reopened).not.toBe(a);
    expect(messageContents(a.file)).toEqual(written);
    const branch = reopened.branch() as Array<{ id: string; message?: { content?: unknown } }>;
    expect(branch.map((entry) => entry.message?.content)).toEqual(written);
    const next = reopened.appendMessage({ role: "assistant", content: "after" });
    expect(next.parentId).toBe(branch.at(-1)?.id);
    expect(messageContents(a.file)).toEqual([...written, "after"]);
  });
});
