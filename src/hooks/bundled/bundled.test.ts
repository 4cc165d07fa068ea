import { describe, expect, it } from "vitest";
import { createHookEvent } from "../runner.js";
import { buildBootPrompt } from "./boot-md.js";
import { commandLogLine } from "./command-logger.js";
import { memoryFileText, recentConversation } from "./session-memory.js";

const line = (role: string, content: unknown) =>
  JSON.stringify({
    type: "message",
    id: "x",
    parentId: null,
    timestamp: "t",
    message: { role, content },
  });

describe("bundled hooks", () => {
  it("session-memory keeps the last user/assistant lines, without slash commands, tools or torn lines", () => {
    const jsonl = [
      JSON.stringify({ type: "session", version: 3, id: "s" }),
      line("user", "first"),
      line("assistant", [
        { type: "text", text: "one" },
        { type: "toolCall", name: "exec" },
      ]),
      line("toolResult", "ignored"),
      line("user", "/status"),
      line("user", [{ type: "text", text: "second" }]),
      line("assistant", "two"),
      '{"type":"message","mess',
    ].join("\n");
    expect(recentConversation(jsonl, 15)).toEqual([
      "user: first",
      "assistant: one",
      "user: second",
      "assistant: two",
    ]);
    expect(recentConversation(jsonl, 2)).toEqual(["user: second", "assistant: two"]);
  });

  it("session-memory writes OpenClaw's header", () => {
    const event = createHookEvent({
      type: "command",
      action: "new",
      sessionKey: "agent:main:main",
      now: () => Date.UTC(2026, 0, 16, 14, 30, 0),
      context: { sessionEntry: { sessionId: "abc123" }, commandSource: "telegram" },
    });
    expect(memoryFileText(event, ["user: hi"])).toBe(
      [
        "# Session: 2026-01-16 14:30:00 UTC",
        "",
        "- **Session Key**: agent:main:main",
        "- **Session ID**: abc123",
        "- **Source**: telegram",
        "",
        "## Conversation Summary",
        "",
        "user: hi",
        "",
      ].join("\n"),
    );
  });

  it("command-logger writes one JSON line per event; boot-md wraps BOOT.md in OpenClaw's prompt", () => {
    const event = createHookEvent({
      type: "command",
      action: "stop",
      sessionKey: "agent:main:main",
      now: () => 0,
      context: { senderId: "42", commandSource: "whatsapp" },
    });
    expect(JSON.parse(commandLogLine(event))).toEqual({
      timestamp: "1970-01-01T00:00:00.000Z",
      action: "stop",
      sessionKey: "agent:main:main",
      senderId: "42",
      source: "whatsapp",
    });
    const prompt = buildBootPrompt("1. check disk");
    expect(prompt.split("\n").slice(0, 4)).toEqual([
      "You are running a boot check. Follow BOOT.md instructions exactly.",
      "",
      "BOOT.md:",
      "1. check disk",
    ]);
    expect(prompt).toContain("If nothing needs attention, reply with ONLY: NO_REPLY.");
  });
});
