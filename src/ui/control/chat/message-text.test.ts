import { describe, expect, it } from "vitest";
import {
  displayRole,
  messageText,
  messageTime,
  runFailure,
  toolCalls,
  toolResult,
} from "./message-text.js";

describe("messageText", () => {
  it("joins text blocks and skips thinking, tool calls and images", () => {
    const message = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hidden" },
        { type: "text", text: "Hello " },
        { type: "toolCall", id: "1", name: "read", arguments: {} },
        { type: "image", data: "xx" },
        { type: "text", text: "world" },
      ],
    };
    expect(messageText(message)).toBe("Hello world");
  });

  it("reads string content and tolerates missing or odd content", () => {
    expect(messageText({ role: "user", content: "plain" })).toBe("plain");
    expect(messageText(undefined)).toBe("");
    expect(messageText({ content: 42 })).toBe("");
    expect(messageText({ content: [null, { type: "text", text: 3 }] })).toBe("");
  });

  it("renders user and assistant messages only", () => {
    expect(displayRole({ role: "user" })).toBe("user");
    expect(displayRole({ role: "assistant" })).toBe("assistant");
    expect(displayRole({ role: "toolResult" })).toBeUndefined();
  });
});

describe("runFailure", () => {
  it("reads a failed or stopped assistant turn from its stopReason, with the error text", () => {
    const failed = { role: "assistant", content: [], stopReason: "error", errorMessage: " 500 " };
    expect(runFailure(failed)).toEqual({ end: "error", error: "500" });
    expect(runFailure({ role: "assistant", stopReason: "aborted" })).toEqual({ end: "aborted" });
    expect(runFailure({ role: "assistant", stopReason: "stop" })).toBeUndefined();
    expect(runFailure({ role: "user", stopReason: "error" })).toBeUndefined();
  });
});

describe("tool calls and results", () => {
  it("lists an assistant turn's tool calls and reads a tool result", () => {
    const turn = {
      role: "assistant",
      content: [
        { type: "text", text: "Looking." },
        { type: "toolCall", id: "c1", name: "ls", arguments: { path: "." } },
        { type: "toolCall", name: 7 },
      ],
    };
    expect(toolCalls(turn)).toEqual([{ id: "c1", name: "ls", args: { path: "." } }]);
    expect(toolCalls({ role: "user", content: turn.content })).toEqual([]);
    const result = {
      role: "toolResult",
      toolCallId: "c1",
      toolName: "ls",
      content: [{ type: "text", text: "a.txt" }],
      isError: true,
    };
    expect(toolResult(result)).toEqual({
      toolCallId: "c1",
      toolName: "ls",
      text: "a.txt",
      isError: true,
    });
    expect(toolResult(turn)).toBeUndefined();
  });

  it("reads a message's time only when it is a positive number", () => {
    expect(messageTime({ timestamp: 1_700_000_000_000 })).toBe(1_700_000_000_000);
    expect(messageTime({ timestamp: "soon" })).toBeUndefined();
    expect(messageTime({})).toBeUndefined();
  });
});
