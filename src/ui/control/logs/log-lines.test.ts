import { describe, expect, it } from "vitest";
import { appendBounded, filterLines, isLogLevel, lineLevel } from "./log-lines.js";

const LINES = [
  "2026-12-02T00:00:00.000Z info gateway listening",
  "2026-12-02T00:00:01.000Z warn device proof refused",
  '2026-12-02T00:00:02.000Z error chat run failed {"runId":"r1"}',
  "a line without a level",
];

describe("log lines", () => {
  it("reads the level after the time", () => {
    expect(LINES.map(lineLevel)).toEqual(["info", "warn", "error", undefined]);
    expect(isLogLevel("warn")).toBe(true);
    expect(isLogLevel("loud")).toBe(false);
  });

  it("keeps the level and above, and lines containing the text in any case", () => {
    expect(filterLines(LINES, { minLevel: "warn", text: "" })).toEqual(LINES.slice(1));
    expect(filterLines(LINES, { minLevel: undefined, text: "RUNID" })).toEqual([LINES[2]]);
    expect(filterLines(LINES, { minLevel: "error", text: "proof" })).toEqual([]);
  });

  it("keeps only the newest lines beyond the bound", () => {
    expect(appendBounded(["a", "b"], ["c", "d"], 3)).toEqual(["b", "c", "d"]);
  });
});
