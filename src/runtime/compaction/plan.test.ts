import { describe, expect, it } from "vitest";
import { branchBuilder } from "../../../test/helpers/transcript-branch.js";
import type { TranscriptEntry, TranscriptMessage } from "../../sessions/index.js";
import { DEFAULT_COMPACTION_SETTINGS, planCompaction, resolveCompactionSettings } from "./plan.js";
import { PRUNED_TOOL_RESULT_PLACEHOLDER } from "./session-view.js";

const settings = { contextWindow: 4000, reserveTokens: 500, keepRecentTokens: 1500 };

function message(entry: TranscriptEntry): TranscriptMessage {
  return (entry as unknown as { message: TranscriptMessage }).message;
}

/** Every kept tool result's call is kept too (a call is never separated from its result). */
function pairsIntact(kept: TranscriptEntry[]): boolean {
  const calls = new Set(
    kept.flatMap((entry) => {
      const content = message(entry).content;
      return Array.isArray(content)
        ? content.flatMap((block) => (block.type === "toolCall" ? [block.id as string] : []))
        : [];
    }),
  );
  return kept
    .filter((entry) => message(entry).role === "toolResult")
    .every((entry) => calls.has(message(entry).toolCallId as string));
}

describe("planCompaction", () => {
  it("skips while the context is under window - reserve", () => {
    const b = branchBuilder();
    b.user(100);
    b.assistant(100);
    expect(planCompaction({ entries: b.entries, ...settings })).toEqual({
      status: "skip",
      reason: "under-threshold",
      tokensBefore: 200,
    });
  });

  it("keeps whole recent turns worth at least keepRecentTokens and summarizes the rest", () => {
    const b = branchBuilder();
    const turns = [1, 2, 3, 4].map((n) => [b.user(100, `u${n}`), b.assistant(900, `a${n}`)]);
    const plan = planCompaction({ entries: b.entries, ...settings });
    expect(plan.status).toBe("ready");
    if (plan.status !== "ready") return;
    expect(plan.reason).toBe("overflow");
    expect(plan.tokensBefore).toBe(4000);
    expect(plan.firstKeptEntryId).toBe(turns[2][0]);
    expect(plan.summarized.map((e) => e.id)).toEqual([...turns[0], ...turns[1]]);
    expect(plan.kept.map((e) => e.id)).toEqual([...turns[2], ...turns[3]]);
    expect(plan.keptTokens).toBe(2000);
    expect(plan.splitTurn).toBe(false);
    expect(plan.messages).toHaveLength(4);
  });

  it("never separates a tool call from its result", () => {
    const b = branchBuilder();
    b.user(100);
    b.assistant(1000);
    const turnStart = b.user(50);
    b.toolCall("c1");
    b.toolResult("c1", 1200);
    b.toolCall("c2");
    b.toolResult("c2", 1200);
    b.assistant(100);
    const plan = planCompaction({ entries: b.entries, ...settings });
    if (plan.status !== "ready") throw new Error("expected a plan");
    expect(plan.firstKeptEntryId).toBe(turnStart);
    expect(pairsIntact(plan.kept)).toBe(true);
  });

  it("splits a single long turn at an assistant message, keeping call/result pairs", () => {
    const b = branchBuilder();
    b.user(50);
    for (const id of ["c1", "c2", "c3", "c4"]) {
      b.toolCall(id);
      b.toolResult(id, 1000);
    }
    b.assistant(50);
    const plan = planCompaction({ entries: b.entries, ...settings });
    if (plan.status !== "ready") throw new Error("expected a plan");
    expect(plan.splitTurn).toBe(true);
    expect(message(plan.kept[0]).role).toBe("assistant");
    expect(pairsIntact(plan.kept)).toBe(true);
    expect(plan.keptTokens).toBeGreaterThanOrEqual(1500);
    expect(plan.summarized.at(-1) && message(plan.summarized.at(-1)!).role).toBe("toolResult");
  });

  it("reports nothing to compact when the branch is one message", () => {
    const b = branchBuilder();
    b.user(5000);
    expect(planCompaction({ entries: b.entries, ...settings })).toMatchObject({
      status: "skip",
      reason: "nothing-to-compact",
    });
  });

  it("starts from the latest compaction: previous summary first, older entries left out", () => {
    const b = branchBuilder();
    b.user(100, "old1");
    b.assistant(900);
    const kept = b.user(100, "u2");
    b.assistant(900);
    b.entry({ type: "compaction", summary: "S1", firstKeptEntryId: kept, tokensBefore: 9999 });
    b.user(100, "u3");
    b.assistant(900);
    b.user(100, "u4");
    b.assistant(900);
    b.user(100, "u5");
    b.assistant(900);
    const plan = planCompaction({ entries: b.entries, ...settings });
    if (plan.status !== "ready") throw new Error("expected a plan");
    expect(plan.previousSummary).toBe("S1");
    const first = plan.messages[0].content as Array<{ text: string }>;
    expect(first[0].text).toContain("<summary>\nS1\n</summary>");
    expect(plan.summarized[0].id).toBe(kept);
    expect(plan.summarized.some((e) => e.type === "compaction")).toBe(false);
  });

  it("plans under the threshold when forced, and trusts reported contextTokens", () => {
    const b = branchBuilder();
    b.user(100);
    b.assistant(100);
    b.user(100);
    b.assistant(100);
    const forced = planCompaction({ entries: b.entries, ...settings, force: true });
    expect(forced).toMatchObject({ status: "ready", reason: "manual", firstKeptEntryId: "e3" });
    const reported = planCompaction({ entries: b.entries, ...settings, contextTokens: 3900 });
    expect(reported).toMatchObject({ status: "ready", reason: "overflow", tokensBefore: 3900 });
  });

  it("prunes tool output from the summarizer input when it would not fit the window", () => {
    const b = branchBuilder();
    b.user(10);
    b.toolCall("c1");
    b.toolResult("c1", 5000);
    b.assistant(10);
    b.user(10);
    b.assistant(1600);
    const plan = planCompaction({ entries: b.entries, ...settings });
    if (plan.status !== "ready") throw new Error("expected a plan");
    const result = plan.messages.find((m) => m.role === "toolResult")!;
    expect(result.content).toEqual([{ type: "text", text: PRUNED_TOOL_RESULT_PLACEHOLDER }]);
    expect(plan.summaryInputTokens).toBeLessThan(100);
    expect(message(plan.summarized[2]).content).not.toEqual(result.content);
  });
});

describe("resolveCompactionSettings", () => {
  it("fills in pi's defaults", () => {
    expect(resolveCompactionSettings()).toEqual(DEFAULT_COMPACTION_SETTINGS);
    expect(resolveCompactionSettings({ reserveTokens: 1000 })).toEqual({
      reserveTokens: 1000,
      keepRecentTokens: 20000,
    });
  });
});
