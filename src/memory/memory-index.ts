// One agent's memory index: the chunks of every memory file in a BM25 index, brought up to date
// before each search by comparing file stamps (inode, size, mtime) with the disk — a changed file
// is re-read, a new one added, a deleted one dropped, so a search never serves a deleted file.
// Persisted (store.ts) when a stamp changed; warm searches only stat. Calls run one at a time.
// With an embedding model (embeddings.ts) every chunk also gets a vector after the sync, and a
// search mixes vector and text scores (vectors.ts); without one, or while it fails, it is BM25.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { Bm25Index, bm25Relevance } from "./bm25.js";
import { type ChunkingOptions, chunkMarkdown, type MemoryChunk } from "./chunk.js";
import type { MemoryEmbedder } from "./embeddings.js";
import { listMemoryFiles, type MemoryFile } from "./files.js";
import {
  loadMemoryStore,
  MEMORY_STORE_VERSION,
  type MemoryStoreKey,
  type StoredChunk,
  type StoredMemoryFile,
  saveMemoryStore,
} from "./store.js";
import { tokenize } from "./tokenize.js";
import { ChunkVectors, DEFAULT_HYBRID, type HybridSettings, mergeScores } from "./vectors.js";

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
  /** The embedding model; absent, the index is full-text only. */
  embedder?: MemoryEmbedder;
  /** How vector and text scores mix (OpenClaw's defaults). */
  hybrid?: HybridSettings;
}

/** How the last search ranked: both scores mixed, vectors alone, or text alone (and why). */
export interface MemorySearchMode {
  mode: "hybrid" | "vector" | "text";
  /** Why an index with an embedding model fell back to text. */
  note?: string;
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
  /** Chunks with a vector, when the index has an embedding model. */
  vectors?: number;
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
  private readonly vectors: ChunkVectors | undefined;
  private searched: MemorySearchMode = { mode: "text" };

  constructor(private readonly params: MemoryIndexParams) {
    this.key = {
      agentId: params.agentId,
      workspaceDir: resolve(params.workspaceDir),
      extraPaths: [...params.extraPaths],
      chunking: { ...params.chunking },
      ...(params.embedder ? { embedder: params.embedder.key } : {}),
    };
    this.vectors = params.embedder
      ? new ChunkVectors(params.embedder, params.now ?? Date.now)
      : undefined;
  }

  /** How the last search ranked (text until the first search). */
  lastSearchMode(): MemorySearchMode {
    return this.searched;
  }

  /** Brings the index up to date with the disk; `force` re-reads every file. */
  sync(options: { force?: boolean } = {}): Promise<MemorySyncReport> {
    return this.serial(() => this.syncNow(options.force === true));
  }

  /** Syncs, then ranks chunks for `query`: at most `maxResults`, none under `minScore`. */
  search(query: string, options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    return this.serial(async () => {
      await this.syncNow(false);
      const scores = await this.rank(query, options.maxResults);
      const ranked: Array<{ chunk: MemoryChunk & { path: string }; shown: string; score: number }> =
        [];
      for (const [id, raw] of scores) {
        const chunk = this.chunks.get(id);
        const score = round(raw);
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

  /** Each chunk's score for `query`: BM25 relevance, mixed with vector similarity when it can be. */
  private async rank(query: string, maxResults: number): Promise<Map<number, number>> {
    const text = new Map<number, number>();
    for (const hit of this.bm25.search(tokenize(query)))
      text.set(hit.docId, bm25Relevance(hit.score));
    const vectors = this.vectors;
    if (!vectors) {
      this.searched = { mode: "text" };
      return text;
    }
    if (vectors.size === 0) {
      this.searched = {
        mode: "text",
        note: this.last?.notes.at(-1) ?? "no chunk has a vector yet",
      };
      return text;
    }
    const embedded = await vectors.embedOne(query);
    if ("error" in embedded) {
      this.searched = { mode: "text", note: `the query was not embedded: ${embedded.error}` };
      return text;
    }
    const hybrid = this.params.hybrid ?? DEFAULT_HYBRID;
    this.searched = { mode: hybrid.enabled ? "hybrid" : "vector" };
    const pool = Math.max(1, maxResults) * Math.max(1, hybrid.candidateMultiplier);
    return mergeScores({ text, vector: vectors.scores(embedded.vector), hybrid, pool });
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
      this.vectors?.delete(id);
    }
    this.files.delete(path);
  }

  private putFile(file: MemoryFile, chunks: readonly StoredChunk[]): void {
    this.removeFile(file.path);
    const chunkIds: number[] = [];
    for (const { embedding, ...chunk } of chunks) {
      const id = this.nextId++;
      if (embedding && this.vectors) this.vectors.set(id, embedding);
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
    let embedded = 0;
    // Read-only (`pincer memory status`) shows the stored vectors and asks the model for nothing.
    if (this.vectors && !this.params.readOnly) {
      const texts = new Map([...this.chunks].map(([id, chunk]) => [id, chunk.text]));
      const filled = await this.vectors.fill(texts);
      embedded = filled.added;
      if (filled.error)
        notes.push(`embeddings failed, search stays full-text until they work: ${filled.error}`);
    }
    const changed =
      added + updated + removed + embedded > 0 || start === "rebuilt" || start === "built";
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
      ...(this.vectors ? { vectors: this.vectors.size } : {}),
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
        const embedding = this.vectors?.get(id);
        return chunk
          ? [
              {
                startLine: chunk.startLine,
                endLine: chunk.endLine,
                text: chunk.text,
                ...(embedding ? { embedding } : {}),
              },
            ]
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
