import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { type KeyedJournalOptions, openKeyedJournal } from "./keyed-journal.js";
import { createEntryLogger } from "./logger.js";

type Pending = { text: string };
type Settled = { result: string };

function harness(overrides: Partial<KeyedJournalOptions<Pending, Settled>> = {}) {
  const dir = makeTempDir("pincer-kj-");
  const path = join(dir, "sub", "journal.jsonl");
  const warnings: Array<Record<string, unknown>> = [];
  let now = 1_000;
  const options = (): KeyedJournalOptions<Pending, Settled> => ({
    path,
    readPending: (v) => (typeof (v as Pending)?.text === "string" ? (v as Pending) : undefined),
    readSettled: (v) => (typeof (v as Settled)?.result === "string" ? (v as Settled) : undefined),
    name: "test journal",
    logger: createEntryLogger((entry) => warnings.push(entry.fields)),
    now: () => now,
    maxSettled: 10,
    ...overrides,
  });
  return {
    path,
    warnings,
    advance: (ms: number) => {
      now += ms;
    },
    open: () => openKeyedJournal(options()),
  };
}

describe("keyed journal", () => {
  it("keeps pending and settled items across a reopen, in order", async () => {
    const h = harness();
    const journal = h.open();
    await journal.accept("a", { text: "one" });
    await journal.accept("b", { text: "two" });
    await journal.accept("c", { text: "three" });
    expect(await journal.settle("b", { result: "done" })).toBe(true);
    // No close: what a kill -9 leaves.
    const again = h.open();
    expect(again.pending().map((item) => [item.key, item.data.text])).toEqual([
      ["a", "one"],
      ["c", "three"],
    ]);
    expect(again.settled()).toEqual([{ key: "b", ts: 1_000, data: { result: "done" } }]);
    expect(statSync(h.path).mode & 0o777).toBe(0o600);
  });

  it("a pending key accepted again gets the new payload; unknown or closed settles are refused", async () => {
    const h = harness();
    const journal = h.open();
    await journal.accept("a", { text: "first" });
    await journal.accept("a", { text: "second" });
    expect(await journal.settle("nope", { result: "x" })).toBe(false);
    await journal.close();
    expect(await journal.settle("a", { result: "late" })).toBe(false);
    await expect(journal.accept("b", { text: "after close" })).rejects.toThrow(/closed/);
    expect(
      h
        .open()
        .pending()
        .map((item) => item.data.text),
    ).toEqual(["second"]);
  });

  it("update replaces a pending payload and leaves settled or unknown keys alone", async () => {
    const h = harness();
    const journal = h.open();
    await journal.accept("a", { text: "first" });
    await journal.accept("b", { text: "settled" });
    await journal.settle("b", { result: "done" });
    expect(journal.update("a", { text: "updated" })).toBe(true);
    expect(journal.update("b", { text: "reopened?" })).toBe(false);
    expect(journal.update("c", { text: "new?" })).toBe(false);
    const again = h.open();
    expect(again.pending().map((item) => [item.key, item.data.text])).toEqual([["a", "updated"]]);
    expect(again.settled().map((item) => item.key)).toEqual(["b"]);
  });

  it("skips a torn last line and corrupt lines, then rewrites the file whole", async () => {
    const h = harness();
    const journal = h.open();
    await journal.accept("a", { text: "kept" });
    await journal.accept("b", { text: "also kept" });
    appendFileSync(h.path, '{"type":"accepted","key":"x","ts":1,"data":{"text":"no"}}\nnot json\n');
    appendFileSync(h.path, '{"type":"accepted","key":"torn","ts":1,"da');
    const again = h.open();
    expect(again.pending().map((item) => item.key)).toEqual(["a", "b", "x"]);
    expect(h.warnings).toEqual([{ path: h.path, torn: 2 }]);
    const text = readFileSync(h.path, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toContain("torn");
    await again.accept("c", { text: "after repair" });
    expect(
      h
        .open()
        .pending()
        .map((item) => item.key),
    ).toEqual(["a", "b", "x", "c"]);
  });

  it("a payload that fails validation is skipped, not trusted", () => {
    const h = harness();
    h.open();
    writeFileSync(h.path, '{"type":"accepted","key":"a","ts":1,"data":{"text":42}}\n');
    expect(h.open().pending()).toEqual([]);
  });

  it("stays bounded: compaction keeps pending items and the newest settled ones", async () => {
    const h = harness({ maxBytes: 2_000, maxSettled: 5 });
    const journal = h.open();
    await journal.accept("old-pending", { text: "still waiting" });
    for (let i = 0; i < 200; i++) {
      await journal.accept(`k${i}`, { text: `message ${i}`.padEnd(40, ".") });
      await journal.settle(`k${i}`, { result: `result ${i}` });
    }
    expect(statSync(h.path).size).toBeLessThan(4_000);
    const again = h.open();
    expect(again.pending().map((item) => item.key)).toEqual(["old-pending"]);
    expect(again.settled().map((item) => item.key)).toEqual([
      "k195",
      "k196",
      "k197",
      "k198",
      "k199",
    ]);
  });

  it("drops settled items older than the retention window", async () => {
    const h = harness({ maxSettledAgeMs: 60_000 });
    const journal = h.open();
    await journal.accept("early", { text: "a" });
    await journal.settle("early", { result: "a" });
    h.advance(50_000);
    await journal.accept("late", { text: "b" });
    await journal.settle("late", { result: "b" });
    h.advance(20_000);
    expect(journal.settled().map((item) => item.key)).toEqual(["late"]);
    expect(
      h
        .open()
        .settled()
        .map((item) => item.key),
    ).toEqual(["late"]);
  });

  it("concurrent accepts all resolve and all land", async () => {
    const h = harness();
    const journal = h.open();
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => journal.accept(`c${i}`, { text: String(i) })),
    );
    expect(h.open().pending()).toHaveLength(50);
  });
});
