import { describe, expect, it } from "vitest";
import { displayRole, messageText, runFailure } from "./message-text.js";

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
