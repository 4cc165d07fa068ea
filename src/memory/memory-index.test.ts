import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { bm25Relevance } from "./bm25.js";
import { DEFAULT_CHUNKING } from "./chunk.js";
import { MemoryIndex, type MemoryIndexParams } from "./memory-index.js";
import { memoryStorePath } from "./store.js";

function workspace(files: Record<string, string>): string {
  const dir = makeTempDir("pincer-memory-");
  for (const [name, text] of Object.entries(files)) write(dir, name, text);
  return dir;
}

function write(dir: string, name: string, text: string): void {
  mkdirSync(dirname(join(dir, name)), { recursive: true });
  writeFileSync(join(dir, name), text);
}

function index(dir: string, extra: Partial<MemoryIndexParams> = {}): MemoryIndex {
  return new MemoryIndex({
    agentId: "main",
    workspaceDir: dir,
    extraPaths: [],
    chunking: DEFAULT_CHUNKING,
    ...extra,
  });
}

const ALL = { maxResults: 10, minScore: 0 };
const round = (value: number) => Math.round(value * 10_000) / 10_000;

describe("MemoryIndex", () => {
  it("ranks chunks of MEMORY.md and memory/**/*.md with exact scores and line ranges", async () => {
    const dir = workspace({
      "MEMORY.md": "alpha beta\n",
      "memory/2026-01-02.md": "alpha gamma gamma\n",
      "memory/deep/old.md": "delta\n",
      "memory/notes.txt": "gamma gamma gamma\n",
      "other.md": "gamma\n",
    });
    const results = await index(dir).search("Gamma", ALL);
    expect(results).toEqual([
      {
        path: "memory/2026-01-02.md",
        startLine: 1,
        endLine: 1,
        score: round(bm25Relevance(Math.log(1 + 2.5 / 1.5) * (4.4 / 3.65))),
        snippet: "alpha gamma gamma",
        source: "memory",
      },
    ]);
    const alpha = await index(dir).search("alpha", ALL);
    expect(alpha.map((r) => [r.path, r.score])).toEqual([
      ["MEMORY.md", round(bm25Relevance(Math.log(1.6)))],
      ["memory/2026-01-02.md", round(bm25Relevance(Math.log(1.6) * (2.2 / 2.65)))],
    ]);
  });

  it("reports the line range of the matching section of a longer file", async () => {
    const dir = workspace({
      "memory/2026-02-01.md": "# Morning\nran 5k\n\n# Evening\nbooked the dentist for March\n",
    });
    const [hit] = await index(dir).search("dentist", ALL);
    expect(hit).toMatchObject({ path: "memory/2026-02-01.md", startLine: 4, endLine: 5 });
    expect(hit.snippet).toBe("# Evening\nbooked the dentist for March");
  });

  it("follows edits, new files and deletions on the next search (a deleted file is never served)", async () => {
    const dir = workspace({ "memory/a.md": "apples\n" });
    const idx = index(dir);
    expect((await idx.search("apples", ALL)).map((r) => r.path)).toEqual(["memory/a.md"]);
    write(dir, "memory/a.md", "pears now, and more text\n");
    write(dir, "memory/b.md", "apples again\n");
    expect((await idx.search("apples", ALL)).map((r) => r.path)).toEqual(["memory/b.md"]);
    expect(idx.lastSync()).toMatchObject({ added: 1, updated: 1, removed: 0, files: 2 });
    rmSync(join(dir, "memory/b.md"));
    expect(await idx.search("apples", ALL)).toEqual([]);
    expect(idx.lastSync()).toMatchObject({ removed: 1, files: 1 });
    // Same size, new mtime: still re-read.
    write(dir, "memory/a.md", "plums now, and more text\n");
    utimesSync(join(dir, "memory/a.md"), new Date(2030, 0, 1), new Date(2030, 0, 1));
    expect((await idx.search("plums", ALL)).map((r) => r.path)).toEqual(["memory/a.md"]);
  });

  it("honours maxResults and minScore, and returns nothing for a query without words", async () => {
    const dir = workspace({
      "memory/a.md": "tea\n",
      "memory/b.md": "tea tea\n",
      "memory/c.md": "x\n",
    });
    const idx = index(dir);
    expect(await idx.search("tea", { maxResults: 1, minScore: 0 })).toHaveLength(1);
    const all = await idx.search("tea", ALL);
    expect(all).toHaveLength(2);
    expect(await idx.search("tea", { maxResults: 10, minScore: all[0].score })).toHaveLength(1);
    expect(await idx.search("?!", ALL)).toEqual([]);
  });

  it("indexes extraPaths (folders scanned for .md, .md files), never through symlinks", async () => {
    const dir = workspace({ "memory/a.md": "local\n" });
    const team = makeTempDir("pincer-memory-team-");
    write(team, "docs/guide.md", "shared runbook\n");
    write(team, "docs/image.png", "runbook\n");
    write(team, "single.md", "runbook single\n");
    const outside = makeTempDir("pincer-memory-outside-");
    write(outside, "secret.md", "runbook secret\n");
    symlinkSync(join(outside, "secret.md"), join(dir, "memory", "link.md"));
    symlinkSync(outside, join(dir, "memory", "linked-dir"));
    const idx = index(dir, {
      extraPaths: [
        join(team, "docs"),
        join(team, "single.md"),
        join(team, "docs/image.png"),
        "missing",
      ],
    });
    const paths = (await idx.search("runbook", ALL)).map((r) => r.path).sort();
    expect(paths).toEqual([join(team, "docs/guide.md"), join(team, "single.md")]);
    expect(idx.lastSync()?.problems).toEqual([
      `memorySearch.extraPaths: ${join(team, "docs/image.png")}: not a folder or a .md file`,
      "memorySearch.extraPaths: missing: not found",
    ]);
  });

  it("persists the index and starts warm from it; a corrupt or stale store is rebuilt", async () => {
    const dir = workspace({ "MEMORY.md": "kiwi\n", "memory/a.md": "mango\n" });
    const state = makeTempDir("pincer-memory-state-");
    const storePath = memoryStorePath(state, "main");
    const first = index(dir, { storePath });
    await first.search("kiwi", ALL);
    expect(first.lastSync()).toMatchObject({ start: "built", added: 2 });
    const stored = JSON.parse(readFileSync(storePath, "utf8"));
    expect(stored.files.map((f: { shown: string }) => f.shown)).toEqual([
      "MEMORY.md",
      "memory/a.md",
    ]);

    const second = index(dir, { storePath });
    expect((await second.search("mango", ALL)).map((r) => r.path)).toEqual(["memory/a.md"]);
    expect(second.lastSync()).toMatchObject({ start: "loaded", added: 0, updated: 0, files: 2 });

    writeFileSync(storePath, "{ not json");
    const third = index(dir, { storePath });
    expect((await third.search("kiwi", ALL)).map((r) => r.path)).toEqual(["MEMORY.md"]);
    expect(third.lastSync()).toMatchObject({ start: "rebuilt", added: 2 });
    expect(third.lastSync()?.notes[0]).toMatch(/^rebuilt the index: .* is not JSON/);
    expect(JSON.parse(readFileSync(storePath, "utf8")).files).toHaveLength(2);

    const rechunked = index(dir, { storePath, chunking: { tokens: 100, overlap: 10 } });
    await rechunked.sync();
    expect(rechunked.lastSync()).toMatchObject({
      start: "rebuilt",
      notes: ["rebuilt the index: its settings changed"],
    });
  });

  it("a stored entry for a file deleted meanwhile is dropped on the first search", async () => {
    const dir = workspace({ "memory/a.md": "fig\n", "memory/b.md": "fig\n" });
    const storePath = memoryStorePath(makeTempDir("pincer-memory-state-"), "main");
    await index(dir, { storePath }).sync();
    rmSync(join(dir, "memory/b.md"));
    const warm = index(dir, { storePath });
    expect((await warm.search("fig", ALL)).map((r) => r.path)).toEqual(["memory/a.md"]);
    expect(warm.lastSync()).toMatchObject({ start: "loaded", removed: 1 });
  });

  it("force re-reads every file", async () => {
    const dir = workspace({ "memory/a.md": "fig\n" });
    const idx = index(dir);
    await idx.sync();
    expect(await idx.sync({ force: true })).toMatchObject({ start: "rebuilt", added: 1 });
  });
});
