import { describe, expect, it } from "vitest";
import { markdownToWhatsApp } from "./format.js";

describe("markdownToWhatsApp", () => {
  it.each([
    ["**bold** and __also__", "*bold* and *also*"],
    ["*italic* and _italic_", "_italic_ and _italic_"],
    ["~~gone~~", "~gone~"],
    ["# Title\ntext", "*Title*\ntext"],
    ["## **Bold** title ##", "*Bold title*"],
    ["see [the docs](https://x.dev/a)", "see the docs (https://x.dev/a)"],
    ["[https://x.dev](https://x.dev)", "https://x.dev"],
    ["![cat](https://x.dev/c.png)", "https://x.dev/c.png"],
    ["* one\n* two", "- one\n- two"],
    ["- one\n1. two", "- one\n1. two"],
    ["> quoted", "> quoted"],
    ["a **bold _and italic_** b", "a *bold _and italic_* b"],
  ])("%j → %j", (input, expected) => {
    expect(markdownToWhatsApp(input)).toBe(expected);
  });

  it("never touches code", () => {
    expect(markdownToWhatsApp("run `a **b** c` now")).toBe("run `a **b** c` now");
    expect(markdownToWhatsApp("```ts\nconst x = **y**;\n```\n**after**")).toBe(
      "```const x = **y**;```\n*after*",
    );
    expect(markdownToWhatsApp("```\nunclosed **x**")).toBe("```unclosed **x**```");
  });

  it("leaves unbalanced markers and arithmetic as typed", () => {
    expect(markdownToWhatsApp("2 * 3 * 4")).toBe("2 * 3 * 4");
    expect(markdownToWhatsApp("a ** b")).toBe("a ** b");
    expect(markdownToWhatsApp("snake_case_name")).toBe("snake_case_name");
    expect(markdownToWhatsApp("~~open")).toBe("~~open");
  });
});
