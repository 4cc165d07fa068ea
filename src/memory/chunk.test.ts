import { describe, expect, it } from "vitest";
import { CHARS_PER_TOKEN, chunkMarkdown } from "./chunk.js";

describe("chunkMarkdown", () => {
  it("starts a chunk at each heading and trims blank lines off the line ranges", () => {
    const text = "intro line\n\n# Travel\nflights booked\n\n\n## Food\nprefers tea\n\n";
    expect(chunkMarkdown(text)).toEqual([
      { startLine: 1, endLine: 1, text: "intro line" },
      { startLine: 3, endLine: 4, text: "# Travel\nflights booked" },
      { startLine: 7, endLine: 8, text: "## Food\nprefers tea" },
    ]);
  });

  it("cuts an oversized stretch at line boundaries, repeating the overlap lines", () => {
    // tokens 3 → 12 chars a chunk; overlap 1 → 4 chars (one 3-char line plus its newline).
    const lines = ["aaa", "bbb", "ccc", "ddd", "eee"];
    expect(CHARS_PER_TOKEN).toBe(4);
    expect(chunkMarkdown(lines.join("\n"), { tokens: 3, overlap: 1 })).toEqual([
      { startLine: 1, endLine: 3, text: "aaa\nbbb\nccc" },
      { startLine: 3, endLine: 5, text: "ccc\nddd\neee" },
    ]);
    expect(chunkMarkdown(lines.join("\n"), { tokens: 3, overlap: 0 })).toEqual([
      { startLine: 1, endLine: 3, text: "aaa\nbbb\nccc" },
      { startLine: 4, endLine: 5, text: "ddd\neee" },
    ]);
  });

  it("keeps a line longer than the target whole, strips CR, and makes nothing of blank text", () => {
    const long = "x".repeat(50);
    expect(chunkMarkdown(`short\r\n${long}\r\nend\r\n`, { tokens: 3, overlap: 0 })).toEqual([
      { startLine: 1, endLine: 1, text: "short" },
      { startLine: 2, endLine: 2, text: long },
      { startLine: 3, endLine: 3, text: "end" },
    ]);
    expect(chunkMarkdown("\n   \n\n")).toEqual([]);
    expect(chunkMarkdown("")).toEqual([]);
  });

  it("a heading right after another heading's first line still splits; a '#tag' is no heading", () => {
    expect(chunkMarkdown("# A\n# B\n#tag here\n")).toEqual([
      { startLine: 1, endLine: 1, text: "# A" },
      { startLine: 2, endLine: 3, text: "# B\n#tag here" },
    ]);
  });
});
