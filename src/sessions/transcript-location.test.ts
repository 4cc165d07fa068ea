// `isInside` answers as the full resolve()/relative() check does, fast path or not: prefixes that
// are not a path segment, `..`, dot files, doubled and trailing slashes, the root, relative paths.
import { isAbsolute, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isInside } from "./transcript-location.js";

function reference(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

const DIRS = ["/s/agents/main/sessions", "/", "/s/a", "/s/a/", "/s/./a", "/s//a", "s/a", "/s/a/.."];
const PATHS = [
  "/s/agents/main/sessions/x.jsonl",
  "/s/agents/main/sessions",
  "/s/agents/main/sessionsX/x.jsonl",
  "/s/agents/main/sessions/../x.jsonl",
  "/s/agents/main/sessions/.hidden.jsonl",
  "/s/agents/main/sessions//x.jsonl",
  "/s/agents/main/sessions/",
  "/s/a/b",
  "/s/ab",
  "/s/a",
  "/s/a/./b",
  "/s/a/..b",
  "/s/a/b/..",
  "/",
  "/x",
  "s/a/b",
  "x.jsonl",
];

describe("isInside", () => {
  it("agrees with resolve()/relative() on every pair", () => {
    const wrong: string[] = [];
    for (const dir of DIRS) {
      for (const path of PATHS) {
        if (isInside(dir, path) !== reference(dir, path)) wrong.push(`${dir} ⊃ ${path}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(isInside("/s/a", "/s/a/b")).toBe(true);
    expect(isInside("/s/a", "/s/ab")).toBe(false);
  });
});
