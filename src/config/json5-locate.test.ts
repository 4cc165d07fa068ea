import { describe, expect, it } from "vitest";
import { locateJson5, skipTrivia } from "./json5-locate.js";

const TEXT = `// leading comment
{
  /* block */ gateway: { port: 18789, },
  'quoted key': "va\\"lue",
  agents: {
    list: [
      { id: "a" },
      { id: 'b', model: +1.5e3 },
    ],
  },
  "odd.key": [ null, true, -Infinity, 0x1F ],
}
`;

describe("locateJson5", () => {
  const located = locateJson5(TEXT);

  it("maps member paths to the key's line and column", () => {
    expect(located.get("gateway")).toMatchObject({ line: 3, column: 15 });
    expect(located.get("gateway.port")).toMatchObject({ line: 3, column: 26 });
    expect(located.get('["quoted key"]')).toMatchObject({ line: 4, column: 3 });
    expect(located.get("agents.list[1].model")).toMatchObject({ line: 8, column: 18 });
  });

  it("maps array elements to the value's position", () => {
    expect(located.get("agents.list[0]")).toMatchObject({ line: 7, column: 7 });
    expect(located.get('["odd.key"][3]')).toMatchObject({ line: 11, column: 39 });
  });

  it("records value spans and key offsets", () => {
    const port = located.get("gateway.port");
    expect(port && TEXT.slice(port.start, port.end)).toBe("18789");
    const quoted = located.get('["quoted key"]');
    expect(quoted && TEXT.slice(quoted.start, quoted.end)).toBe('"va\\"lue"');
    expect(
      quoted?.keyStart !== undefined && TEXT.slice(quoted.keyStart, quoted.keyStart + 12),
    ).toBe("'quoted key'");
    const list = located.get("agents.list");
    expect(list && TEXT.slice(list.start, list.end).startsWith("[")).toBe(true);
    expect(list && TEXT.slice(list.start, list.end).endsWith("]")).toBe(true);
    const root = located.get("");
    expect(root).toMatchObject({ line: 2, column: 1 });
  });

  it("returns an empty map for text without a value", () => {
    expect(locateJson5("// nothing\n").size).toBe(0);
  });
});

describe("skipTrivia", () => {
  it("skips whitespace and both comment styles", () => {
    const text = "  // a\n /* b */  x";
    expect(text[skipTrivia(text, 0)]).toBe("x");
  });
});
