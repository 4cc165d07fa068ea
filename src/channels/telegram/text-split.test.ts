// The 4096 safety net: pieces fit after rendering, text is kept whole, code fences survive a cut.
import { describe, expect, it } from "vitest";
import { markdownToTelegramHtml } from "./markdown-html.js";
import { splitMarkdownToFit } from "./text-split.js";

const identity = (s: string) => s;

describe("splitMarkdownToFit", () => {
  it("never goes over the limit when the cut falls right before a space", () => {
    for (const limit of [5, 10, 17]) {
      const markdown = `${"a".repeat(limit)} bbbb ${"c".repeat(limit - 1)} d`;
      const pieces = splitMarkdownToFit({ markdown, limit, render: identity });
      for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(limit);
      expect(pieces.join("").replace(/\s/g, "")).toBe(markdown.replace(/\s/g, ""));
    }
  });

  it("returns short text whole", () => {
    expect(splitMarkdownToFit({ markdown: "short", limit: 10, render: identity })).toEqual([
      "short",
    ]);
  });

  it("cuts at line breaks and keeps every line", () => {
    const markdown = ["aaaa", "bbbb", "cccc", "dddd"].join("\n");
    const pieces = splitMarkdownToFit({ markdown, limit: 9, render: identity });
    expect(pieces).toEqual(["aaaa\nbbbb", "cccc\ndddd"]);
  });

  it("measures the rendered HTML, not the source", () => {
    const markdown = "&&&&\n&&&&"; // 9 chars of source, 2 × 20 of HTML
    const pieces = splitMarkdownToFit({ markdown, limit: 25, render: markdownToTelegramHtml });
    expect(pieces).toEqual(["&&&&", "&&&&"]);
    for (const piece of pieces)
      expect(markdownToTelegramHtml(piece).length).toBeLessThanOrEqual(25);
  });

  it("cuts an over-long line at spaces, else anywhere", () => {
    const words = splitMarkdownToFit({
      markdown: "one two three four",
      limit: 9,
      render: identity,
    });
    expect(words.join("")).toBe("one two three four");
    for (const piece of words) expect(piece.length).toBeLessThanOrEqual(9);
    expect(words[0]).toBe("one two ");
    const solid = splitMarkdownToFit({ markdown: "x".repeat(25), limit: 10, render: identity });
    expect(solid).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });

  it("never splits a surrogate pair", () => {
    const markdown = "ab😀😀😀";
    const pieces = splitMarkdownToFit({ markdown, limit: 3, render: identity });
    expect(pieces.join("")).toBe(markdown);
    for (const piece of pieces) expect(piece).not.toMatch(/[\ud800-\udbff]$|^[\udc00-\udfff]/);
  });

  it("closes a code fence at a cut and reopens it in the next piece", () => {
    const code = Array.from({ length: 6 }, (_, i) => `line ${i}`).join("\n");
    const markdown = `intro\n\`\`\`js\n${code}\n\`\`\`\noutro`;
    const pieces = splitMarkdownToFit({ markdown, limit: 80, render: markdownToTelegramHtml });
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      const html = markdownToTelegramHtml(piece);
      expect(html.length).toBeLessThanOrEqual(80);
      expect(html.split("<pre>").length).toBe(html.split("</pre>").length);
    }
    const rendered = pieces.map(markdownToTelegramHtml).join("");
    for (let i = 0; i < 6; i++) expect(rendered).toContain(`line ${i}`);
    expect(pieces.filter((p) => p.startsWith("```js")).length).toBeGreaterThan(0);
  });
});
