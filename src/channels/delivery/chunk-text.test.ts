import { describe, expect, it } from "vitest";
import { chunkReplyText } from "./chunk-text.js";

describe("chunkReplyText", () => {
  it("keeps a short reply whole and drops an empty one", () => {
    expect(chunkReplyText("  hello  ", 100)).toEqual(["hello"]);
    expect(chunkReplyText("   ", 100)).toEqual([]);
  });

  it("cuts at paragraph boundaries, each chunk within the limit", () => {
    const paragraphs = Array.from({ length: 6 }, (_, i) =>
      `Paragraph ${i} ${"word ".repeat(8)}`.trim(),
    );
    const chunks = chunkReplyText(paragraphs.join("\n\n"), 120);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(120);
    expect(chunks.join("\n\n")).toBe(paragraphs.join("\n\n"));
  });

  it("never leaves a code fence open: a split fence is closed and reopened", () => {
    const code = Array.from({ length: 30 }, (_, i) => `line ${i} of the code`).join("\n");
    const text = `Intro\n\n\`\`\`ts\n${code}\n\`\`\`\n\nOutro`;
    const chunks = chunkReplyText(text, 200);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(200);
      const fences = chunk.split("\n").filter((line) => line.startsWith("```")).length;
      expect(fences % 2, chunk).toBe(0);
    }
  });
});
