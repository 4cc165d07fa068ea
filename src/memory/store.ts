// The persisted index of one agent: `<stateDir>/memory/<agentId>.json`, the chunks of every file
// with the stamp they were cut from, so a restarted gateway or a CLI call re-reads only files that
// changed. Written atomically; anything unreadable or of another shape is reported and rebuilt.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomicAsync } from "../lib/atomic-write.js";
import type { ChunkingOptions, MemoryChunk } from "./chunk.js";

/** Format version of the file; another version is rebuilt. */
export const MEMORY_STORE_VERSION = 1;

/** One file as stored: where it was, its stamp, and its chunks. */
export interface StoredMemoryFile {
  path: string;
  shown: string;
  size: number;
  mtimeMs: number;
  ino: number;
  chunks: StoredChunk[];
}

/** A chunk as stored, with its unit vector when the index has an embedding model. */
export type StoredChunk = MemoryChunk & { embedding?: number[] };

/** What a stored index was built from; a different one means a rebuild. */
export interface MemoryStoreKey {
  agentId: string;
  workspaceDir: string;
  extraPaths: string[];
  chunking: ChunkingOptions;
  /** The embedding model's key (`provider/model@baseUrl`); absent: full-text only. */
  embedder?: string;
}

/** The file's content. */
export interface MemoryStoreData extends MemoryStoreKey {
  version: number;
  builtAt: number;
  files: StoredMemoryFile[];
}

/** A load: the data, or why there is none (`missing`, or a reason to rebuild). */
export type MemoryStoreLoad =
  | { ok: true; data: MemoryStoreData }
  | { ok: false; reason: "missing" | "stale" | "corrupt"; detail?: string };

/** Where `agentId`'s index lives under the state dir. */
export function memoryStorePath(stateDir: string, agentId: string): string {
  return join(stateDir, "memory", `${agentId}.json`);
}

function isChunk(value: unknown): value is StoredChunk {
  const chunk = value as StoredChunk;
  return (
    typeof chunk === "object" &&
    chunk !== null &&
    Number.isInteger(chunk.startLine) &&
    Number.isInteger(chunk.endLine) &&
    typeof chunk.text === "string" &&
    (chunk.embedding === undefined ||
      (Array.isArray(chunk.embedding) && chunk.embedding.every((x) => typeof x === "number")))
  );
}

function isStoredFile(value: unknown): value is StoredMemoryFile {
  const file = value as StoredMemoryFile;
  return (
    typeof file === "object" &&
    file !== null &&
    typeof file.path === "string" &&
    typeof file.shown === "string" &&
    typeof file.size === "number" &&
    typeof file.mtimeMs === "number" &&
    typeof file.ino === "number" &&
    Array.isArray(file.chunks) &&
    file.chunks.every(isChunk)
  );
}

function sameKey(a: MemoryStoreKey, b: MemoryStoreKey): boolean {
  return (
    a.agentId === b.agentId &&
    a.workspaceDir === b.workspaceDir &&
    a.chunking?.tokens === b.chunking.tokens &&
    a.chunking?.overlap === b.chunking.overlap &&
    JSON.stringify(a.extraPaths) === JSON.stringify(b.extraPaths) &&
    (a.embedder ?? null) === (b.embedder ?? null)
  );
}

/** Reads the stored index; it must match `key` (else `stale`) and be well formed (else `corrupt`). */
export async function loadMemoryStore(path: string, key: MemoryStoreKey): Promise<MemoryStoreLoad> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, reason: "missing" };
    return { ok: false, reason: "corrupt", detail: `cannot read ${path}: ${String(err)}` };
  }
  let data: MemoryStoreData;
  try {
    data = JSON.parse(text) as MemoryStoreData;
  } catch (err) {
    return {
      ok: false,
      reason: "corrupt",
      detail: `${path} is not JSON: ${(err as Error).message}`,
    };
  }
  if (typeof data !== "object" || data === null || !Array.isArray(data.files))
    return { ok: false, reason: "corrupt", detail: `${path} has no file list` };
  if (data.version !== MEMORY_STORE_VERSION || !sameKey(data, key))
    return { ok: false, reason: "stale" };
  if (!data.files.every(isStoredFile))
    return { ok: false, reason: "corrupt", detail: `${path} has a malformed file entry` };
  return { ok: true, data };
}

/** Writes the index atomically (private file mode, as everything under the state dir). */
export async function saveMemoryStore(path: string, data: MemoryStoreData): Promise<void> {
  await writeFileAtomicAsync(path, JSON.stringify(data));
}
