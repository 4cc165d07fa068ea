import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { createEntryLogger } from "../lib/logger.js";
import { parseJsonLines } from "./jsonl.js";
import { openTranscript, readTranscript } from "./transcript.js";
import { currentBranch, describeEntry, TRANSCRIPT_VERSION } from "./transcript-format.js";

/** A logger collecting the warning messages (the store's info lines are not warnings). */
function warningsTo(warnings: string[]) {
  return createEntryLogger((entry) => {
    if (entry.level === "warn") warnings.push(entry.msg);
  });
}

function tempDir(): string {
  return makeTempDir("pincer-transcript-");
}

function counterIds() {
  let n = 0;
  return {
    sessionId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    entryId: () => (++n).toString(16).padStart(8, "0"),
  };
}

function recordingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: warningsTo(warnings) };
}

const clock = { now: () => Date.parse("2026-03-01T10:00:00.000Z") };

describe("transcript append", () => {
  it("writes a v3 header, then one line per entry chained by parentId", () => {
    const file = join(tempDir(), "s1.jsonl");
    const t = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids: counterIds() });
    const user = t.appendMessage({ role: "user", content: "hi", timestamp: clock.now() });
    const model = t.append({ type: "model_change", provider: "openai", modelId: "gpt-5" });
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines).toHaveLength(4); // header, 2 entries, trailing newline
    expect(lines[3]).toBe("");
    expect(JSON.parse(lines[0]!)).toEqual({
      type: "session",
      version: TRANSCRIPT_VERSION,
      id: "s1",
      timestamp: "2026-03-01T10:00:00.000Z",
      cwd: "/ws",
    });
    expect(Object.keys(JSON.parse(lines[1]!))).toEqual([
      "type",
      "id",
      "parentId",
      "timestamp",
      "message",
    ]);
    expect(user.parentId).toBeNull();
    expect(model.parentId).toBe(user.id);
    expect(user.id).toMatch(/^[0-9a-f]{8}$/);
  });

  it("reopens an existing file and continues from its last entry", () => {
    const file = join(tempDir(), "s1.jsonl");
    const ids = counterIds();
    const first = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids });
    const a = first.appendMessage({ role: "user", content: "one" });
    const second = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids });
    expect(second.leafId).toBe(a.id);
    const b = second.appendMessage({ role: "assistant", content: [{ type: "text", text: "two" }] });
    expect(b.parentId).toBe(a.id);
    expect(readTranscript({ file }).entries.map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it("branches from an earlier entry and reads the current branch from the leaf", () => {
    const file = join(tempDir(), "s1.jsonl");
    const t = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids: counterIds() });
    const a = t.appendMessage({ role: "user", content: "a" });
    const b = t.appendMessage({ role: "assistant", content: "b" });
    t.setLeaf(a.id);
    const c = t.appendMessage({ role: "assistant", content: "c" });
    expect(t.branch().map((e) => e.id)).toEqual([a.id, c.id]);
    const read = readTranscript({ file });
    expect(currentBranch(read.entries).map((e) => e.id)).toEqual([a.id, c.id]);
    expect(currentBranch(read.entries, b.id).map((e) => e.id)).toEqual([a.id, b.id]);
  });

  it("re-draws an entry id that collides with an existing one", () => {
    const file = join(tempDir(), "s1.jsonl");
    const seq = ["aaaaaaaa", "aaaaaaaa", "bbbbbbbb"];
    const ids = { sessionId: () => "x", entryId: () => seq.shift() ?? "cccccccc" };
    const t = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids });
    t.appendMessage({ role: "user", content: "1" });
    expect(t.appendMessage({ role: "user", content: "2" }).id).toBe("bbbbbbbb");
  });
});

describe("transcript read", () => {
  it("ignores a torn last line with a warning and never throws", () => {
    const file = join(tempDir(), "s1.jsonl");
    const t = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids: counterIds() });
    t.appendMessage({ role: "user", content: "kept" });
    appendFileSync(file, '{"type":"message","id":"torn","parentId":null,"timest');
    const { warnings, logger } = recordingLogger();
    const read = readTranscript({ file, logger });
    expect(read.entries).toHaveLength(1);
    expect(read.issues).toEqual([expect.objectContaining({ line: 3, kind: "torn-tail" })]);
    expect(warnings[0]).toContain(`${file}:3`);
  });

  it("reports and skips a corrupt middle line", () => {
    const file = join(tempDir(), "s1.jsonl");
    const t = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids: counterIds() });
    t.appendMessage({ role: "user", content: "one" });
    appendFileSync(file, "{not json}\n");
    t.appendMessage({ role: "user", content: "two" });
    const read = readTranscript({ file });
    expect(read.entries.map((e) => describeEntry(e).text)).toEqual(["one", "two"]);
    expect(read.issues).toEqual([expect.objectContaining({ line: 3, kind: "corrupt-line" })]);
  });

  it("cuts a torn tail before appending so the new line is not glued to it", () => {
    const file = join(tempDir(), "s1.jsonl");
    const ids = counterIds();
    openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids }).appendMessage({
      role: "user",
      content: "one",
    });
    appendFileSync(file, '{"type":"mess');
    const { warnings, logger } = recordingLogger();
    const t = openTranscript({ file, sessionId: "s1", cwd: "/ws", clock, ids, logger });
    t.appendMessage({ role: "user", content: "two" });
    expect(warnings.some((w) => w.includes("cutting the torn last line"))).toBe(true);
    const read = readTranscript({ file });
    expect(read.issues).toEqual([]);
    expect(read.entries).toHaveLength(2);
  });

  it("keeps a complete last line that lacks its newline and starts the next append on a new line", () => {
    const file = join(tempDir(), "s1.jsonl");
    writeFileSync(
      file,
      '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n' +
        '{"type":"message","id":"aa","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}}',
    );
    const t = openTranscript({ file, sessionId: "s1", cwd: "/", clock, ids: counterIds() });
    t.appendMessage({ role: "user", content: "y" });
    const parsed = parseJsonLines(readFileSync(file));
    expect(parsed.issues).toEqual([]);
    expect(parsed.records).toHaveLength(3);
  });

  it("chains version-1 entries (no ids) in file order and refuses to append to them", () => {
    const file = join(tempDir(), "old.jsonl");
    writeFileSync(
      file,
      [
        { type: "session", id: "old", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" },
        { type: "message", timestamp: "t1", message: { role: "user", content: "a" } },
        { type: "message", timestamp: "t2", message: { role: "assistant", content: "b" } },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n") + "\n",
    );
    const read = readTranscript({ file });
    expect(read.version).toBe(1);
    expect(currentBranch(read.entries).map((e) => describeEntry(e).text)).toEqual(["a", "b"]);
    expect(() => openTranscript({ file, sessionId: "old", cwd: "/", clock })).toThrow(/version 1/);
  });

  it("writes the header of a file a crash left empty or cut in its header, never of a real one", () => {
    for (const content of ["", '{"type":"session","vers']) {
      const file = join(tempDir(), "cut.jsonl");
      writeFileSync(file, content);
      const { warnings, logger } = recordingLogger();
      const t = openTranscript({ file, sessionId: "cut", cwd: "/ws", clock, logger });
      t.appendMessage({ role: "user", content: "after the crash", timestamp: clock.now() });
      const read = readTranscript({ file });
      expect(read.header).toMatchObject({ type: "session", id: "cut" });
      expect(read.entries).toHaveLength(1);
      expect(warnings.some((w) => w.includes("cut while created"))).toBe(true);
    }
    const other = join(tempDir(), "other.jsonl");
    writeFileSync(other, '{"type":"message","id":"a","parentId":null}\n');
    expect(() => openTranscript({ file: other, sessionId: "o", cwd: "/ws", clock })).toThrow(
      /no session header/,
    );
    expect(readFileSync(other, "utf8")).toBe('{"type":"message","id":"a","parentId":null}\n');
  });

  it("returns exists: false for a missing file", () => {
    expect(readTranscript({ file: join(tempDir(), "none.jsonl") })).toMatchObject({
      exists: false,
      entries: [],
    });
  });
});
