// One JSON5 reader: only lib/json5.ts loads the json5 package (lazily, never on import).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJson5 } from "./json5.js";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("parseJson5", () => {
  it("parses JSON5 and throws the package's located SyntaxError", () => {
    expect(parseJson5("{a: 1, // note\n b: [0x10,],}")).toEqual({ a: 1, b: [16] });
    let caught: unknown;
    try {
      parseJson5("{a: 1,\n  b: }");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SyntaxError);
    expect((caught as { lineNumber?: number }).lineNumber).toBe(2);
  });

  it("is the only module of src that loads the json5 package", () => {
    const src = new URL("../", import.meta.url).pathname;
    const loaders = sourceFiles(src).filter((file) =>
      /from "json5"|\("json5"\)/.test(readFileSync(file, "utf8")),
    );
    expect(loaders.map((file) => file.slice(src.length))).toEqual(["lib/json5.ts"]);
  });
});
