import { describe, expect, it } from "vitest";
import { nextChatText } from "./text-deltas.js";

describe("nextChatText", () => {
  it("appends deltas, replaces on replace, and says what the replace added", () => {
    let state = nextChatText("", { state: "delta", deltaText: "Hel" });
    expect(state).toEqual({ text: "Hel", appended: "Hel" });
    state = nextChatText(state.text, { state: "delta", deltaText: "lo" });
    expect(state).toEqual({ text: "Hello", appended: "lo" });
    state = nextChatText(state.text, { state: "delta", deltaText: "Hello, world", replace: true });
    expect(state).toEqual({ text: "Hello, world", appended: ", world" });
    state = nextChatText(state.text, { state: "final", message: {}, deltaText: "!" });
    expect(state).toEqual({ text: "Hello, world!", appended: "!" });
  });

  it("keeps the text for events without deltaText, reports a replace that does not extend it", () => {
    expect(nextChatText("abc", { state: "final", message: {} })).toEqual({
      text: "abc",
      appended: "",
    });
    expect(nextChatText("abc", { deltaText: "xyz", replace: true })).toEqual({
      text: "xyz",
      appended: undefined,
    });
    expect(nextChatText("abc", undefined).text).toBe("abc");
  });
});
