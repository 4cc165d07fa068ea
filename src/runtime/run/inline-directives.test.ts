// The inline `/think` directive: taken off a message that goes on with text, for that run only.
import { describe, expect, it } from "vitest";
import { takeInlineDirectives } from "./inline-directives.js";

describe("takeInlineDirectives", () => {
  it("takes a leading /think <level> off a message with text after it", () => {
    expect(takeInlineDirectives("/think high what is 2+2?")).toEqual({
      message: "what is 2+2?",
      thinkingLevel: "high",
    });
    expect(takeInlineDirectives("  /Thinking: OFF  summarize\nthis  ")).toEqual({
      message: "summarize\nthis",
      thinkingLevel: "off",
    });
  });
  it("leaves a bare directive, an unknown level and a later /think as they are", () => {
    expect(takeInlineDirectives("/think high")).toEqual({ message: "/think high" });
    expect(takeInlineDirectives("/think ultra what")).toEqual({ message: "/think ultra what" });
    expect(takeInlineDirectives("please /think high now")).toEqual({
      message: "please /think high now",
    });
    expect(takeInlineDirectives("/thinker high x")).toEqual({ message: "/thinker high x" });
  });
});
