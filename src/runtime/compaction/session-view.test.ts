import { describe, expect, it } from "vitest";
import { branchBuilder } from "../../../test/helpers/transcript-branch.js";
import type { TranscriptMessage } from "../../sessions/index.js";
import {
  buildContextFromBranch,
  COMPACTION_SUMMARY_PREFIX,
  PRUNED_TOOL_RESULT_PLACEHOLDER,
  pruneToolResults,
} from "./session-view.js";
import { buildSummaryPrompt, serializeConversation } from "./summary-prompt.js";
import { estimateMessageTokens, estimateTokens } from "./tokens.js";

const roles = (messages: TranscriptMessage[]) => messages.map((m) => m.role);

describe("buildContextFromBranch", () => {
  it("returns the model-visible messages in order, skipping bookkeeping entries", () => {
    const b = branchBuilder();
    b.entry({ type: "model_change", provider: "openai", modelId: "gpt-5" });
    b.user(1);
    b.entry({ type: "custom", customType: "state", data: {} });
    b.assistant(1);
    b.entry({ type: "custom_message", customType: "note", content: "injected", display: true });
    const context = buildContextFromBranch(b.entries);
    expect(roles(context)).toEqual(["user", "assistant", "user"]);
    expect(context[2].content).toBe("injected");
  });

  it("puts the latest summary first, then the kept entries and what follows the compaction", () => {
    const b = branchBuilder();
    b.user(1, "dropped");
    b.assistant(1, "dropped");
    const kept = b.user(1, "kept");
    b.toolCall("c1");
    b.toolResult("c1", 1);
    b.entry({ type: "compaction", summary: "first", firstKeptEntryId: kept, tokensBefore: 10 });
    b.user(1, "later");
    b.entry({ type: "compaction", summary: "second", firstKeptEntryId: kept, tokensBefore: 20 });
    b.assistant(1, "latest");
    const context = buildContextFromBranch(b.entries);
    expect(roles(context)).toEqual([
      "user",
      "user",
      "assistant",
      "toolResult",
      "user",
      "assistant",
    ]);
    const summary = (context[0].content as Array<{ text: string }>)[0].text;
    expect(summary).toBe(`${COMPACTION_SUMMARY_PREFIX}second\n</summary>`);
    expect(JSON.stringify(context)).not.toContain("dropped");
    expect(JSON.stringify(context)).not.toContain("first");
  });

  it("keeps only what follows the compaction when firstKeptEntryId is missing", () => {
    const b = branchBuilder();
    b.user(1, "old");
    b.entry({ type: "compaction", summary: "S", firstKeptEntryId: "nope", tokensBefore: 1 });
    b.user(1, "new");
    expect(roles(buildContextFromBranch(b.entries))).toEqual(["user", "user"]);
    expect(JSON.stringify(buildContextFromBranch(b.entries))).not.toContain("old");
  });
});

describe("pruneToolResults", () => {
  it("clears tool results older than the last turns, in memory only", () => {
    const b = branchBuilder();
    b.user(1);
    b.toolCall("c1");
    b.toolResult("c1", 50);
    b.user(1);
    b.toolCall("c2");
    b.toolResult("c2", 50);
    b.assistant(1);
    const messages = buildContextFromBranch(b.entries);
    const snapshot = structuredClone(messages);
    const pruned = pruneToolResults(messages, { keepLastTurns: 1 });
    expect(messages).toEqual(snapshot);
    expect(pruned[2].content).toEqual([{ type: "text", text: PRUNED_TOOL_RESULT_PLACEHOLDER }]);
    expect(pruned[2]).toMatchObject({ role: "toolResult", toolCallId: "c1" });
    expect(pruned[5]).toBe(messages[5]);
    expect(pruneToolResults(messages, { keepLastTurns: 2 })).toEqual(messages);
    const all = pruneToolResults(messages, { keepLastTurns: 0, placeholder: "[gone]" });
    expect(all[5].content).toEqual([{ type: "text", text: "[gone]" }]);
  });
});

describe("estimates and the summary prompt", () => {
  it("estimates chars/4 and counts images and tool calls", () => {
    expect(estimateTokens("abcdefgh")).toBe(2);
    expect(estimateTokens("abcdefghi")).toBe(3);
    expect(
      estimateMessageTokens({
        role: "user",
        content: [
          { type: "text", text: "1234" },
          { type: "image", data: "...", mimeType: "image/png" },
        ],
      }),
    ).toBe(1201);
    expect(
      estimateMessageTokens({
        role: "assistant",
        content: [{ type: "toolCall", id: "c", name: "read", arguments: { path: "a" } }],
      }),
    ).toBe(Math.ceil((4 + JSON.stringify({ path: "a" }).length) / 4));
  });

  it("serializes messages as a plain transcript for the summarizer", () => {
    const text = serializeConversation([
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [{ type: "toolCall", name: "read", arguments: { path: "a" } }],
      },
      {
        role: "toolResult",
        toolName: "read",
        isError: true,
        content: [{ type: "text", text: "ENOENT" }],
      },
    ]);
    expect(text).toBe(
      '[User]\nhi\n\n[Assistant]\n[tool call] read({"path":"a"})\n\n[Tool result: read, error]\nENOENT',
    );
    expect(buildSummaryPrompt([{ role: "user", content: "hi" }])).toContain(
      "<conversation>\n[User]\nhi",
    );
  });
});
