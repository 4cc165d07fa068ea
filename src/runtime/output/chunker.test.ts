import { describe, expect, it } from "vitest";
import { type BlockChunkerOptions, createBlockChunker } from "./chunker.js";
import { scanFences } from "./fences.js";

function chunkAll(text: string, options: BlockChunkerOptions, deltaSize = 7): string[] {
  const chunker = createBlockChunker(options);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += deltaSize)
    out.push(...chunker.push(text.slice(i, i + deltaSize)));
  out.push(...chunker.flush());
  return out;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/** A block's fences are balanced when its last fence is closed. */
const balanced = (block: string) => scanFences(block).every((fence) => fence.end >= 0);

describe("createBlockChunker", () => {
  it("emits paragraphs once past minChars and keeps everything", () => {
    const paragraphs = Array.from(
      { length: 6 },
      (_, i) => `Paragraph ${i} ${"word ".repeat(8).trim()}.`,
    );
    const text = paragraphs.join("\n\n");
    const blocks = chunkAll(text, { minChars: 60, maxChars: 200, breakOn: "paragraph" });
    expect(blocks.length).toBeGreaterThan(1);
    for (const block of blocks.slice(0, -1)) {
      expect(block.length).toBeGreaterThanOrEqual(60);
      expect(block.length).toBeLessThanOrEqual(200);
    }
    expect(words(blocks.join(" "))).toEqual(words(text));
    expect(blocks.every((block) => !block.startsWith("\n") && block === block.trimEnd())).toBe(
      true,
    );
  });

  it("emits nothing before the text is complete enough, then everything on flush", () => {
    const chunker = createBlockChunker({ minChars: 50, maxChars: 100, breakOn: "paragraph" });
    expect(chunker.push("Short start.\n\nStill short.")).toEqual([]);
    expect(chunker.buffered).toBeGreaterThan(0);
    expect(chunker.flush()).toEqual(["Short start.\n\nStill short."]);
    expect(chunker.buffered).toBe(0);
  });

  it("breaks at sentence ends in sentence mode, waiting for the space after the period", () => {
    const chunker = createBlockChunker({ minChars: 10, maxChars: 80, breakOn: "sentence" });
    expect(chunker.push("This is the first one.")).toEqual([]);
    expect(chunker.push(" And a second")).toEqual(["This is the first one."]);
    expect(chunker.flush()).toEqual(["And a second"]);
  });

  it("breaks at line ends in newline mode", () => {
    const blocks = chunkAll("line one here\nline two here\nline three\n", {
      minChars: 5,
      maxChars: 40,
      breakOn: "newline",
    });
    expect(blocks).toEqual(["line one here", "line two here", "line three"]);
  });

  it("falls back to weaker breaks, then a hard cut, when the limit is exceeded", () => {
    const text = "x".repeat(30) + " " + "y".repeat(50);
    const blocks = chunkAll(text, { minChars: 10, maxChars: 40, breakOn: "paragraph" });
    expect(blocks).toEqual(["x".repeat(30), "y".repeat(40), "y".repeat(10)]);
  });

  it("never cuts inside a code fence that fits", () => {
    const code = "```ts\nconst a = 1;\n\nconst b = 2;\n```";
    const text = `Intro paragraph here.\n\n${code}\n\nOutro paragraph.`;
    for (const size of [1, 3, 7, 100]) {
      const blocks = chunkAll(text, { minChars: 5, maxChars: 60, breakOn: "paragraph" }, size);
      expect(
        blocks.some((block) => block.includes(code)),
        `delta ${size}`,
      ).toBe(true);
      expect(blocks.every(balanced)).toBe(true);
    }
  });

  it("closes and reopens a fence that is longer than maxChars", () => {
    const lines = Array.from({ length: 30 }, (_, i) => `  call(${i});`);
    const text = `Code:\n\n\`\`\`js\n${lines.join("\n")}\n\`\`\`\n\nDone.`;
    const blocks = chunkAll(text, { minChars: 20, maxChars: 120, breakOn: "paragraph" });
    expect(blocks.length).toBeGreaterThan(3);
    for (const block of blocks) {
      expect(block.length).toBeLessThanOrEqual(120);
      expect(balanced(block), block).toBe(true);
    }
    const codeBlocks = blocks.filter((block) => block.includes("call("));
    for (const block of codeBlocks) {
      expect(block.startsWith("```js") || block.startsWith("Code:")).toBe(true);
      expect(block.endsWith("```")).toBe(true);
    }
    const calls = blocks.join("\n").match(/call\(\d+\)/g);
    expect(calls).toEqual(lines.map((line) => line.trim().slice(0, -1)));
    expect(blocks.at(-1)).toBe("Done.");
  });

  it("keeps a ~~~ fence with a longer closing run intact", () => {
    const text = "~~~~\nuse ``` here\n\nstill code\n~~~~~\n\nafter";
    const blocks = chunkAll(text, { minChars: 1, maxChars: 200, breakOn: "paragraph" });
    expect(blocks).toEqual(["~~~~\nuse ``` here\n\nstill code\n~~~~~", "after"]);
  });
});

describe("scanFences", () => {
  it("finds closed and unclosed fences and ignores inline backtick runs", () => {
    const text = "a\n```py\nx\n```\nb ```inline``` c\n~~~\nopen";
    const spans = scanFences(text);
    expect(spans.map((span) => [span.opener, span.end >= 0])).toEqual([
      ["```py", true],
      ["~~~", false],
    ]);
  });
});
