import { describe, expect, it } from "vitest";
import { closestMatch, damerauLevenshtein } from "./edit-distance.js";

describe("damerauLevenshtein", () => {
  it.each([
    { a: "", b: "", expected: 0 },
    { a: "abc", b: "", expected: 3 },
    { a: "kitten", b: "sitting", expected: 3 },
    { a: "bindngs", b: "bindings", expected: 1 },
    { a: "opne", b: "open", expected: 1 },
    { a: "ab", b: "ba", expected: 1 },
  ])("$a → $b = $expected", ({ a, b, expected }) => {
    expect(damerauLevenshtein(a, b)).toBe(expected);
  });
});

describe("closestMatch", () => {
  it("suggests the nearest candidate within the typo threshold", () => {
    expect(closestMatch("bindngs", ["agents", "bindings", "channels"])).toBe("bindings");
    expect(closestMatch("opne", ["pairing", "allowlist", "open", "disabled"])).toBe("open");
    expect(closestMatch("Gateway", ["gateway"])).toBe("gateway");
  });

  it("returns undefined when nothing is close", () => {
    expect(closestMatch("zzzzzz", ["agents", "bindings"])).toBeUndefined();
    expect(closestMatch("a", ["b"])).toBeUndefined();
  });
});
