import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import {
  currentBranch,
  openTranscript,
  readTranscript,
  type Transcript,
  type TranscriptMessage,
} from "../../sessions/index.js";
import { compactHistory, createCompactionBudget } from "./compact.js";
import { planCompaction } from "./plan.js";
import { buildContextFromBranch, COMPACTION_SUMMARY_PREFIX } from "./session-view.js";

const sized = (tokens: number, label: string) => `${label} `.padEnd(tokens * 4, "x");
const settings = { contextWindow: 4000, reserveTokens: 500, keepRecentTokens: 1500 };

function transcriptWithTurns(turns: number): { transcript: Transcript; file: string } {
  const file = join(makeTempDir("pincer-compaction-"), "s1.jsonl");
  let n = 0;
  const transcript = openTranscript({
    file,
    sessionId: "s1",
    cwd: "/ws",
    clock: { now: () => Date.UTC(2026, 0, 1) },
    ids: { sessionId: () => "s1", entryId: () => `id${++n}` },
  });
  for (let i = 1; i <= turns; i++) {
    transcript.appendMessage({ role: "user", content: sized(100, `user ${i}`), timestamp: i });
    transcript.appendMessage({
      role: "assistant",
      content: [{ type: "text", text: sized(900, `answer ${i}`) }],
      timestamp: i,
    });
  }
  return { transcript, file };
}

const text = (message: TranscriptMessage): string =>
  typeof message.content === "string"
    ? message.content
    : (message.content as Array<{ text?: string }>).map((block) => block.text ?? "").join("");

describe("compactHistory", () => {
  it("writes one compaction entry and the rebuilt context starts with its summary", async () => {
    const { transcript, file } = transcriptWithTurns(4);
    const plan = planCompaction({ entries: transcript.branch(), ...settings });
    if (plan.status !== "ready") throw new Error("expected a plan");
    const summarize = vi.fn(async (messages: TranscriptMessage[]) => {
      expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
      return "  The user asked four things; two are answered.  ";
    });
    const result = await compactHistory({ plan, summarize, transcript });
    expect(result).toMatchObject({ ok: true, tokensBefore: 4000 });
    expect(summarize).toHaveBeenCalledTimes(1);

    const entries = readTranscript({ file }).entries;
    const last = entries.at(-1)!;
    expect(last).toMatchObject({
      type: "compaction",
      summary: "The user asked four things; two are answered.",
      firstKeptEntryId: plan.firstKeptEntryId,
      tokensBefore: 4000,
    });
    const context = buildContextFromBranch(currentBranch(entries));
    expect(context).toHaveLength(5);
    expect(text(context[0])).toBe(
      `${COMPACTION_SUMMARY_PREFIX}The user asked four things; two are answered.\n</summary>`,
    );
    expect(context.slice(1).map((m) => text(m).split(" x")[0].trim())).toEqual([
      "user 3",
      "answer 3",
      "user 4",
      "answer 4",
    ]);
    // The session goes on after the compaction: new entries follow the kept ones.
    transcript.appendMessage({ role: "user", content: "next", timestamp: 9 });
    const after = buildContextFromBranch(currentBranch(readTranscript({ file }).entries));
    expect(text(after.at(-1)!)).toBe("next");
    expect(after).toHaveLength(6);
  });

  it("writes nothing and does not retry when the summarizer throws", async () => {
    const { transcript, file } = transcriptWithTurns(4);
    const before = readFileSync(file, "utf8");
    const plan = planCompaction({ entries: transcript.branch(), ...settings });
    const summarize = vi.fn(async () => {
      throw new Error("context_length_exceeded");
    });
    const result = await compactHistory({ plan, summarize, transcript });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "summarize_failed",
        message: expect.stringContaining("context_length_exceeded"),
      },
    });
    expect(summarize).toHaveBeenCalledTimes(1);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("writes nothing for an empty summary", async () => {
    const { transcript, file } = transcriptWithTurns(4);
    const before = readFileSync(file, "utf8");
    const plan = planCompaction({ entries: transcript.branch(), ...settings });
    const result = await compactHistory({ plan, summarize: async () => " \n ", transcript });
    expect(result).toMatchObject({ ok: false, error: { code: "empty_summary" } });
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("reports an abort, a skipped plan and a failed write as errors", async () => {
    const { transcript } = transcriptWithTurns(4);
    const plan = planCompaction({ entries: transcript.branch(), ...settings });
    const controller = new AbortController();
    const aborted = await compactHistory({
      plan,
      transcript,
      signal: controller.signal,
      summarize: async (_messages, signal) => {
        controller.abort();
        expect(signal.aborted).toBe(true);
        throw signal.reason;
      },
    });
    expect(aborted).toMatchObject({ ok: false, error: { code: "aborted" } });

    const summarize = vi.fn(async () => "x");
    const skipped = await compactHistory({
      plan: { status: "skip", reason: "under-threshold", tokensBefore: 1 },
      summarize,
      transcript,
    });
    expect(skipped).toMatchObject({ ok: false, error: { code: "nothing_to_compact" } });
    expect(summarize).not.toHaveBeenCalled();

    const failingTarget = {
      append: () => {
        throw new Error("disk full");
      },
    };
    const failed = await compactHistory({ plan, summarize, transcript: failingTarget });
    expect(failed).toMatchObject({ ok: false, error: { code: "append_failed" } });
  });
});

describe("createCompactionBudget", () => {
  it("allows one attempt per overflow by default", () => {
    const budget = createCompactionBudget();
    expect(budget.tryAcquire()).toBe(true);
    expect(budget.tryAcquire()).toBe(false);
    expect(budget.attempts).toBe(1);
    expect(createCompactionBudget(0).tryAcquire()).toBe(false);
  });
});
