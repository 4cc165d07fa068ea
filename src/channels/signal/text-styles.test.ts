import { describe, expect, it } from "vitest";
import { markdownToSignal, textStyleParams } from "./text-styles.js";

const render = (md: string) => {
  const { text, styles } = markdownToSignal(md);
  return { text, styles: textStyleParams(styles) };
};

describe("markdownToSignal", () => {
  it("turns paired markers into ranges (UTF-16 offsets) and drops the markers", () => {
    expect(render("a **b** *c* ~~d~~ ||e|| `f`")).toEqual({
      text: "a b c d e f",
      styles: ["2:1:BOLD", "4:1:ITALIC", "6:1:STRIKETHROUGH", "8:1:SPOILER", "10:1:MONOSPACE"],
    });
    expect(render("😀 **hi**")).toEqual({ text: "😀 hi", styles: ["3:2:BOLD"] });
  });

  it("nests styles and renders headings, links and fenced code", () => {
    expect(render("**bold _both_**")).toEqual({
      text: "bold both",
      styles: ["5:4:ITALIC", "0:9:BOLD"],
    });
    expect(render("# Title\n[docs](https://x.dev)")).toEqual({
      text: "Title\ndocs (https://x.dev)",
      styles: ["0:5:BOLD"],
    });
    expect(render("see:\n```ts\nconst a = 1;\n```\ndone")).toEqual({
      text: "see:\nconst a = 1;\ndone",
      styles: ["5:12:MONOSPACE"],
    });
  });

  it("leaves what it is not sure about as written", () => {
    expect(render("2 * 3 * 4")).toEqual({ text: "2 * 3 * 4", styles: [] });
    expect(render("snake_case_name and **open")).toEqual({
      text: "snake_case_name and **open",
      styles: [],
    });
    expect(render("\\*not italic\\*")).toEqual({ text: "*not italic*", styles: [] });
  });
});
