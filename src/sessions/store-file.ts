// sessions.json on disk: loading (with recovery from `sessions.json.bak` when the file is corrupt or
// half-written) and snapshot writing (pretty JSON like OpenClaw, atomic, 0600, previous copy kept as .bak).
import { copyFileSync, existsSync, linkSync, renameSync, rmSync } from "node:fs";
import { writeFileAtomicAsync } from "../lib/atomic-write.js";
import type { Logger } from "../lib/logger.js";
import { readTextIfExists } from "../lib/read-if-exists.js";
import { formatArchiveTimestamp } from "./archive.js";
import { isJsonObject } from "./jsonl.js";
import type { SessionEntry } from "./types.js";

/** Path of the last good copy of a store file. */
export function backupPathFor(storePath: string): string {
  return `${storePath}.bak`;
}

/** What {@link loadStoreFile} found. */
export interface LoadedStoreFile {
  entries: Array<[string, SessionEntry]>;
  /** Set when the main file was unusable and the .bak copy was used. */
  recoveredFrom?: string;
  /** Set when the main file existed but could not be parsed. */
  corrupt?: { path: string; reason: string };
}

type ParseOutcome =
  | { ok: true; entries: Array<[string, SessionEntry]> }
  | { ok: false; reason: string };

function parseStoreText(params: { path: string; text: string; logger: Logger }): ParseOutcome {
  const { path, text, logger } = params;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  if (!isJsonObject(value)) return { ok: false, reason: "not a JSON object" };
  const entries: Array<[string, SessionEntry]> = [];
  const skipped: string[] = [];
  for (const [key, raw] of Object.entries(value)) {
    if (!isJsonObject(raw) || typeof raw.sessionId !== "string" || raw.sessionId === "") {
      skipped.push(key);
      continue;
    }
    const updatedAt = typeof raw.updatedAt === "number" ? raw.updatedAt : 0;
    entries.push([key, { ...raw, sessionId: raw.sessionId, updatedAt }]);
  }
  if (skipped.length > 0) {
    logger.warn(
      `${path}: skipped ${skipped.length} entries without a sessionId: ${skipped.join(", ")}`,
    );
  }
  return { ok: true, entries };
}

/**
 * Loads a store file. A missing file is an empty store. A corrupt one falls back to `.bak` with a
 * warning; when both are unusable the store starts empty (the caller keeps the corrupt file aside).
 */
export function loadStoreFile(storePath: string, logger: Logger): LoadedStoreFile {
  const text = readTextIfExists(storePath);
  if (text === undefined) return { entries: [] };
  const main = parseStoreText({ path: storePath, text, logger });
  if (main.ok) return { entries: main.entries };
  const corrupt = { path: storePath, reason: main.reason };
  const bakPath = backupPathFor(storePath);
  const bakText = readTextIfExists(bakPath);
  const bak =
    bakText === undefined ? undefined : parseStoreText({ path: bakPath, text: bakText, logger });
  if (bak?.ok) {
    logger.warn(
      `${storePath} is unreadable (${main.reason}); recovered ${bak.entries.length} sessions from ${bakPath}`,
    );
    return { entries: bak.entries, recoveredFrom: bakPath, corrupt };
  }
  logger.warn(
    `${storePath} is unreadable (${main.reason}) and no usable ${bakPath} exists; starting with an empty index`,
  );
  return { entries: [], corrupt };
}

/** Inputs for {@link quarantineCorrupt}. */
export interface QuarantineCorruptParams {
  storePath: string;
  /** The good copy the index was loaded from, put back in place at once. */
  restoreFrom?: string;
  now: number;
}

/**
 * Moves a corrupt store file aside as `<file>.corrupt.<ts>` (so no later write destroys it) and, when a
 * good copy was used, puts that copy back atomically so readers see a valid file right away.
 */
export function quarantineCorrupt(params: QuarantineCorruptParams): string {
  const { storePath } = params;
  const aside = `${storePath}.corrupt.${formatArchiveTimestamp(params.now)}`;
  renameSync(storePath, aside);
  if (params.restoreFrom) {
    const temp = `${storePath}.${process.pid}.restore.tmp`;
    copyFileSync(params.restoreFrom, temp);
    renameSync(temp, storePath);
  }
  return aside;
}

const CHUNK = 2_000;
const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The `  "key": {…}` lines of a chunk, exactly as `JSON.stringify(whole, null, 2)` prints them. */
function serializeChunk(chunk: ReadonlyArray<readonly [string, SessionEntry]>): string {
  // One stringify of a chunk object is several times faster than per-entry re-indenting. Objects put
  // integer-like keys first, so a chunk holding one is printed entry by entry to keep the order.
  if (!chunk.some(([key]) => ARRAY_INDEX.test(key))) {
    return JSON.stringify(Object.fromEntries(chunk), null, 2).slice(2, -2);
  }
  return chunk
    .map(([key, entry]) => JSON.stringify({ [key]: entry }, null, 2).slice(2, -2))
    .join(",\n");
}

/**
 * Serializes entries exactly as `JSON.stringify(object, null, 2)` would (OpenClaw's format), in chunks
 * that yield to the event loop so a 100,000-entry store does not stall other work. Entries must not be
 * mutated meanwhile (the store replaces entries, never edits them).
 */
export async function serializeStore(
  entries: ReadonlyArray<readonly [string, SessionEntry]>,
): Promise<Buffer> {
  if (entries.length === 0) return Buffer.from("{}");
  const parts: Buffer[] = [Buffer.from("{\n")];
  for (let start = 0; start < entries.length; start += CHUNK) {
    const end = Math.min(entries.length, start + CHUNK);
    if (start > 0) parts.push(Buffer.from(",\n"));
    parts.push(Buffer.from(serializeChunk(entries.slice(start, end)), "utf8"));
    if (end < entries.length) await yieldToEventLoop();
  }
  parts.push(Buffer.from("\n}"));
  return Buffer.concat(parts);
}

/** Keeps the current store file as `.bak` (a hard link: no copy), falling back to a copy. */
function preserveBackup(storePath: string): void {
  if (!existsSync(storePath)) return;
  const bak = backupPathFor(storePath);
  const temp = `${bak}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  try {
    linkSync(storePath, temp);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "EXDEV" && code !== "ENOTSUP" && code !== "EMLINK") throw err;
    copyFileSync(storePath, temp);
  }
  renameSync(temp, bak);
}

/** Writes a snapshot atomically (temp + fsync + rename + dir fsync, mode 0600), keeping the old file as .bak. */
export async function writeStoreFile(storePath: string, data: Uint8Array): Promise<void> {
  preserveBackup(storePath);
  await writeFileAtomicAsync(storePath, data, { mode: 0o600 });
}
