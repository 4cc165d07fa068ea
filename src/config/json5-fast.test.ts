import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { parseJson5Fast } from "./json5-fast.js";
import { scanJson5 } from "./json5-locate.js";

// Each text the fast reader accepts must give exactly what json5 + the scanner give.
const ACCEPTED = [
  `{}`,
  `[]`,
  `{ a: 1, "b": 'two', c: [true, false, null], }`,
  `// leading comment\n{\n  /* block */ agents: { list: [{ id: "main", default: true }] }, // tail\n}\n`,
  `{ n: [0, -1, +2, 1.5, .5, 5., 1e3, -2.5E-2, 0x1F, -0xff, Infinity, -Infinity] }`,
  `{ s: "tab\\there", q: 'it\\'s', u: "\\u00e9\\u2603", slash: "a\\/b", e: "" }`,
  `{ "__proto__": { polluted: true }, constructor: 1 }`,
  `{ dup: 1, dup: 2 }`,
  `{ default: 1, null: 2, true: 3, $x: 4, _y: 5 }`,
  `{ text: "emoji 🦞 and ünïcödé inside strings" }`,
  `\uFEFF{ bom: true }`,
  `{ a: 1 } // end`,
  `"just a string"`,
  `42`,
  `{ "1": "one", "0": "zero", b: 2 }`,
];

// The fast reader gives up on these; json5 decides (some are valid, some are not).
const DECLINED = [
  `{ a: 1 b: 2 }`,
  `{ a: 01 }`,
  `{ a: "line\ncontinues" }`,
  `{ a: "\\x41" }`,
  `{ ünï: 1 }`,
  `{ a: 1 }\u00A0`,
  `{ a: [1,, 2] }`,
  `{ a: }`,
  `{ a: 1`,
  `{ a: /* open`,
  `{ a: "unterminated }`,
  `{ a: truex }`,
  `{ a: 1 } x`,
  ``,
  `   // only a comment`,
];

describe("parseJson5Fast", () => {
  it.each(ACCEPTED)("matches json5 and the scanner for %j", (text) => {
    const fast = parseJson5Fast(text);
    expect(fast).toBeDefined();
    expect(fast?.value).toEqual(JSON5.parse(text));
    expect(fast?.root).toEqual(scanJson5(text));
  });

  it("keeps __proto__ as an own key without touching the prototype", () => {
    const fast = parseJson5Fast(`{ "__proto__": { polluted: true } }`);
    const value = fast?.value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reads NaN and negative zero like json5", () => {
    const fast = parseJson5Fast(`[NaN, -0]`)?.value as number[];
    expect(Number.isNaN(fast[0])).toBe(true);
    expect(Object.is(fast[1], -0)).toBe(true);
  });

  it.each(DECLINED)("declines %j", (text) => {
    expect(parseJson5Fast(text)).toBeUndefined();
  });
});
