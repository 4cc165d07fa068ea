import { describe, expect, it } from "vitest";
import {
  REASONING_MAX_CHARS,
  reasoningText,
  TOOL_ARGS_MAX_CHARS,
  TOOL_RESULT_MAX_CHARS,
  toolCallText,
  toolResultText,
} from "./progress-text.js";

describe("tool-call lines", () => {
  it("summarize the telling argument on one line, as code", () => {
    expect(
      toolCallText({ toolName: "exec", args: { command: "ls -la\n  | wc -l", yield: 5 } }),
    ).toBe("🛠️ exec: `ls -la | wc -l`");
    expect(toolCallText({ toolName: "read", args: { path: "my_notes.md", limit: 3 } })).toBe(
      "🛠️ read: `my_notes.md`",
    );
    expect(toolCallText({ toolName: "web_search", args: { query: "a `b` c" } })).toBe(
      "🛠️ web_search: `a 'b' c`",
    );
  });

  it("fall back to the arguments' JSON, the bare tool name, and cut long summaries", () => {
    expect(toolCallText({ toolName: "memory_get", args: { id: 4 } })).toBe(
      '🛠️ memory_get: `{"id":4}`',
    );
    expect(toolCallText({ toolName: "session_status", args: {} })).toBe("🛠️ session_status");
    const line = toolCallText({ toolName: "exec", args: { command: "x".repeat(400) } });
    const summary = line.slice("🛠️ exec: `".length, -1);
    expect(summary).toHaveLength(TOOL_ARGS_MAX_CHARS);
    expect(summary.endsWith("…")).toBe(true);
  });
});

describe("tool results", () => {
  it("show the text output in a code block, cut, and mark a failure", () => {
    const ok = toolResultText({
      toolName: "exec",
      isError: false,
      result: { content: [{ type: "text", text: "y".repeat(2000) }, { type: "image" }] },
    });
    const body = ok.split("\n")[2]!;
    expect(ok.startsWith("📎 exec result:\n```\n")).toBe(true);
    expect(body).toHaveLength(TOOL_RESULT_MAX_CHARS);
    const failed = toolResultText({
      toolName: "read",
      isError: true,
      result: { content: [{ type: "text", text: "no ```such``` file" }] },
    });
    expect(failed).toBe("⚠️ read failed:\n```\nno '''such''' file\n```");
    expect(toolResultText({ toolName: "write", isError: false, result: { content: [] } })).toBe(
      "📎 write result (no text output)",
    );
  });
});

describe("reasoning messages", () => {
  it("put each line in italics under a heading, cut; nothing for empty reasoning", () => {
    expect(reasoningText("First.\n\n  Then.  ")).toBe("Reasoning:\n_First._\n\n_Then._");
    expect(reasoningText("  \n ")).toBeUndefined();
    expect(reasoningText("z".repeat(5000))!.length).toBeLessThan(REASONING_MAX_CHARS + 20);
  });
});
