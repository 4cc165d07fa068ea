// One agent's memory index: the chunks of every memory file in a BM25 index, brought up to date
// before each search by comparing file stamps (inode, size, mtime) with the disk — a changed file
// is re-read, a new one added, a deleted one dropped, so a search never serves a deleted file.
// Persisted (store.ts) when a stamp changed; warm searches only stat. Calls run one at a time.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Bm25Index, bm25Relevance } from "./bm25.js";
import { type ChunkingOptions, chunkMarkdown, type MemoryChunk } from "./chunk.js";
import { listMemoryFiles, type MemoryFile } from "./files.js";
import {
  loadMemoryStore,
  MEMORY_STORE_VERSION,
  type MemoryStoreKey,
  type StoredMemoryFile,
  saveMemoryStore,
} from "./store.js";
import { tokenize } from "./tokenize.js";

/** Longest snippet a result carries (OpenClaw's ~700 characters). */
export const SNIPPET_MAX_CHARS = 700;

/** Inputs of a {@link MemoryIndex}. */
export interface MemoryIndexParams {
  agentId: string;
  workspaceDir: string;
  extraPaths: readonly string[];
  chunking: ChunkingOptions;
  /** The persisted index (`memoryStorePath`); absent, the index lives in memory only. */
  storePath?: string;
  /** What `~` in an extra path stands for (the config's home); default the OS home. */
  home?: string;
  /** Start from the stored index but never write it (`pincer memory status`). */
  readOnly?: boolean;
  now?: () => number;
}

/** One ranked snippet, in OpenClaw's result shape. */
export interface MemorySearchResult {
  path: string;
  startLine: number;
  endLine: number;
  /** BM25 relevance mapped to 0..1 (s / (1 + s)), rounded to 4 places. */
  score: number;
  snippet: string;
  source: "memory";
}

/** What one sync did. */
export interface MemorySyncReport {
  at: number;
  files: number;
  chunks: number;
  added: number;
  updated: number;
  removed: number;
  /** How the in-memory index started: loaded from the store, rebuilt, or already warm. */
  start: "warm" | "loaded" | "built" | "rebuilt";
  /** Why a stored index was not used (corrupt, stale) and whether it could be written. */
  notes: string[];
  /** Extra paths that could not be used. */
  problems: string[];
}

/** Search options; defaults come from the caller's settings. */
export interface MemorySearchOptions {
  maxResults: number;
  minScore: number;
}

interface IndexedFile extends MemoryFile {
  chunkIds: number[];
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function snippetOf(text: string): string {
  return text.length <= SNIPPET_MAX_CHARS ? text : `${text.slice(0, SNIPPET_MAX_CHARS - 1)}…`;
}

function sameStamp(a: MemoryFile, b: MemoryFile): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** See the file comment. */
export class MemoryIndex {
  private readonly files = new Map<string, IndexedFile>();
  private readonly chunks = new Map<number, MemoryChunk & { path: string }>();
  private readonly bm25 = new Bm25Index();
  private nextId = 1;
  private primed = false;
  private queue: Promise<unknown> = Promise.resolve();
  private last: MemorySyncReport | undefined;
  private readonly key: MemoryStoreKey;

  constructor(private readonly params: MemoryIndexParams) {
    this.key = {
      agentId: params.agentId,
      workspaceDir: resolve(params.workspaceDir),
      extraPaths: [...params.extraPaths],
      chunking: { ...params.chunking },
    };
  }

  /** Brings the index up to date with the disk; `force` re-reads every file. */
  sync(options: { force?: boolean } = {}): Promise<MemorySyncReport> {
    return this.serial(() => this.syncNow(options.force === true));
  }

  /** Syncs, then ranks chunks for `query`: at most `maxResults`, none under `minScore`. */
  search(query: string, options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    return this.serial(async () => {
      await this.syncNow(false);
      const ranked: Array<{ chunk: MemoryChunk & { path: string }; shown: string; score: number }> =
        [];
      for (const hit of this.bm25.search(tokenize(query))) {
        const chunk = this.chunks.get(hit.docId);
        const score = round(bm25Relevance(hit.score));
        if (!chunk || score < options.minScore || score <= 0) continue;
        ranked.push({ chunk, shown: this.files.get(chunk.path)?.shown ?? chunk.path, score });
      }
      ranked.sort(
        (a, b) =>
          b.score - a.score ||
          (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0) ||
          a.chunk.startLine - b.chunk.startLine,
      );
      return ranked.slice(0, Math.max(1, options.maxResults)).map(
        ({ chunk, shown, score }): MemorySearchResult => ({
          path: shown,
          startLine: chunk.startLine,
          endLine: chunk.endLine,
          score,
          snippet: snippetOf(chunk.text),
          source: "memory",
        }),
      );
    });
  }

  /** The memory files as last synced (sorted by shown path), with their chunk counts. */
  listFiles(): Array<{ path: string; shown: string; chunks: number; size: number }> {
    return [...this.files.values()]
      .map((file) => ({
        path: file.path,
        shown: file.shown,
        chunks: file.chunkIds.length,
        size: file.size,
      }))
      .sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  }

  /** The last sync's report; undefined before the first. */
  lastSync(): MemorySyncReport | undefined {
    return this.last;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private removeFile(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    for (const id of file.chunkIds) {
      this.bm25.remove(id);
      this.chunks.delete(id);
    }
    this.files.delete(path);
  }

  private putFile(file: MemoryFile, chunks: readonly MemoryChunk[]): void {
    this.removeFile(file.path);
    const chunkIds: number[] = [];
    for (const chunk of chunks) {
      const id = this.nextId++;
      this.chunks.set(id, { ...chunk, path: file.path });
      this.bm25.add(id, tokenize(chunk.text));
      chunkIds.push(id);
    }
    this.files.set(file.path, { ...file, chunkIds });
  }

  /** Loads the persisted index into an empty one; a note says why it was not usable. */
  private async prime(notes: string[]): Promise<"loaded" | "built" | "rebuilt"> {
    this.primed = true;
    if (!this.params.storePath) return "built";
    const load = await loadMemoryStore(this.params.storePath, this.key);
    if (!load.ok) {
      if (load.reason === "corrupt") notes.push(`rebuilt the index: ${load.detail}`);
      if (load.reason === "stale") notes.push("rebuilt the index: its settings changed");
      return load.reason === "missing" ? "built" : "rebuilt";
    }
    for (const stored of load.data.files) this.putFile(stored, stored.chunks);
    return "loaded";
  }

  private async readChunks(file: MemoryFile): Promise<MemoryChunk[] | undefined> {
    try {
      return chunkMarkdown(await readFile(file.path, "utf8"), this.params.chunking);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
      throw err;
    }
  }

  private async syncNow(force: boolean): Promise<MemorySyncReport> {
    const notes: string[] = [];
    let start: MemorySyncReport["start"] = "warm";
    if (force) {
      for (const path of [...this.files.keys()]) this.removeFile(path);
      this.primed = true;
      start = "rebuilt";
    } else if (!this.primed) start = await this.prime(notes);
    const listed = await listMemoryFiles({
      workspaceDir: this.key.workspaceDir,
      extraPaths: this.key.extraPaths,
      ...(this.params.home ? { home: this.params.home } : {}),
    });
    const seen = new Set<string>();
    let added = 0;
    let updated = 0;
    for (const file of listed.files) {
      const known = this.files.get(file.path);
      if (known && sameStamp(known, file)) {
        seen.add(file.path);
        continue;
      }
      const chunks = await this.readChunks(file);
      if (!chunks) continue;
      seen.add(file.path);
      this.putFile(file, chunks);
      if (known) updated++;
      else added++;
    }
    let removed = 0;
    for (const path of [...this.files.keys()]) {
      if (seen.has(path)) continue;
      this.removeFile(path);
      removed++;
    }
    const changed = added + updated + removed > 0 || start === "rebuilt" || start === "built";
    if (changed && this.params.storePath && !this.params.readOnly) await this.persist(notes);
    const report: MemorySyncReport = {
      at: (this.params.now ?? Date.now)(),
      files: this.files.size,
      chunks: this.chunks.size,
      added,
      updated,
      removed,
      start,
      notes,
      problems: listed.problems,
    };
    this.last = report;
    return report;
  }

  private async persist(notes: string[]): Promise<void> {
    const path = this.params.storePath;
    if (!path) return;
    const files: StoredMemoryFile[] = [...this.files.values()].map((file) => ({
      path: file.path,
      shown: file.shown,
      size: file.size,
      mtimeMs: file.mtimeMs,
      ino: file.ino,
      chunks: file.chunkIds.flatMap((id) => {
        const chunk = this.chunks.get(id);
        return chunk
          ? [{ startLine: chunk.startLine, endLine: chunk.endLine, text: chunk.text }]
          : [];
      }),
    }));
    try {
      await saveMemoryStore(path, {
        version: MEMORY_STORE_VERSION,
        ...this.key,
        builtAt: (this.params.now ?? Date.now)(),
        files,
      });
    } catch (err) {
      notes.push(`could not save the index to ${path}: ${(err as Error).message}`);
    }
  }
}
