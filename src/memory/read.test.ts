import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { readMemorySlice } from "./read.js";

function setup() {
  const dir = makeTempDir("pincer-memory-read-");
  mkdirSync(join(dir, "memory", "2026"), { recursive: true });
  writeFileSync(join(dir, "MEMORY.md"), "one\ntwo\nthree\nfour\n");
  writeFileSync(join(dir, "memory", "2026", "01-02.md"), "daily\n");
  writeFileSync(join(dir, "AGENTS.md"), "rules\n");
  writeFileSync(join(dir, "memory", "notes.txt"), "not markdown\n");
  const outside = makeTempDir("pincer-memory-outside-");
  writeFileSync(join(outside, "secret.md"), "secret\n");
  symlinkSync(join(outside, "secret.md"), join(dir, "memory", "link.md"));
  symlinkSync(outside, join(dir, "memory", "linked"));
  const extra = makeTempDir("pincer-memory-extra-");
  writeFileSync(join(extra, "team.md"), "team notes\n");
  const read = (path: string, more: { from?: number; lines?: number; maxChars?: number } = {}) =>
    readMemorySlice({ workspaceDir: dir, extraPaths: [extra], path, maxChars: 1000, ...more });
  return { dir, outside, extra, read };
}

describe("readMemorySlice", () => {
  it("reads a slice by from/lines, a whole file by default, and says where it goes on", async () => {
    const { read } = setup();
    expect(await read("MEMORY.md", { from: 2, lines: 2 })).toEqual({
      ok: true,
      slice: {
        path: "MEMORY.md",
        from: 2,
        to: 3,
        totalLines: 4,
        text: "two\nthree",
        truncated: false,
        nextFrom: 4,
      },
    });
    expect(await read("memory/2026/01-02.md")).toEqual({
      ok: true,
      slice: {
        path: "memory/2026/01-02.md",
        from: 1,
        to: 1,
        totalLines: 1,
        text: "daily",
        truncated: false,
      },
    });
    expect(await read("MEMORY.md", { maxChars: 8 })).toMatchObject({
      ok: true,
      slice: { to: 2, text: "one\ntwo", truncated: true, nextFrom: 3 },
    });
    expect(await read("MEMORY.md", { from: 9 })).toEqual({
      ok: false,
      error: "from 9 is past the end of MEMORY.md (4 lines).",
    });
  });

  it("reads an extra path by the absolute path memory_search shows for it", async () => {
    const { read, extra } = setup();
    expect(await read(join(extra, "team.md"))).toMatchObject({
      ok: true,
      slice: { text: "team notes" },
    });
  });

  it("refuses everything else: other files, .. escapes, symlinks, folders, missing files", async () => {
    const { read, outside, dir } = setup();
    const cases: Array<[string, RegExp]> = [
      ["AGENTS.md", /^AGENTS\.md is not a memory file; memory_get reads MEMORY\.md/],
      ["memory/notes.txt", /is not a memory file/],
      [
        "memory/../../etc/passwd",
        /^No memory file memory\/\.\.\/\.\.\/etc\/passwd|is not a memory file/,
      ],
      [join(outside, "secret.md"), /is not a memory file/],
      ["memory/link.md", /^memory\/link\.md is a symlink; symlinks are not followed/],
      ["memory/linked/secret.md", /^memory\/linked\/secret\.md leads through a symlink/],
      ["memory", /^memory is a folder, not a memory file/],
      ["memory/2026/01-03.md", /^No memory file memory\/2026\/01-03\.md/],
      [`${dir}/../${"x"}.md`, /^No memory file|is not a memory file/],
      ["  ", /^A non-empty `path` is required\.$/],
    ];
    for (const [path, error] of cases) {
      const result = await read(path);
      expect(result.ok, path).toBe(false);
      if (!result.ok) expect(result.error, path).toMatch(error);
    }
  });
});
