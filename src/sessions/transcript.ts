// Reading and appending `<sessionId>.jsonl` transcripts. Appends never rewrite the file: each entry is
// one write of one line ending in a newline. Reading tolerates a torn last line and corrupt lines.

import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { type Logger, silentLogger } from "../lib/logger.js";
import { fsyncFd, fsyncPath } from "./fsync.js";
import { isJsonObject, parseJsonLines } from "./jsonl.js";
import type { TranscriptApi } from "./store-api.js";
import {
  createTranscriptHeader,
  isTranscriptHeader,
  type MessageEntry,
  MIN_APPENDABLE_VERSION,
  type TranscriptEntry,
  type TranscriptEntryInput,
  type TranscriptHeader,
  type TranscriptMessage,
} from "./transcript-format.js";
import { TranscriptTree } from "./transcript-tree.js";
import type { Clock, IdSource } from "./types.js";

/** A problem found while reading a transcript; reading goes on. */
export interface TranscriptIssue {
  line: number;
  kind: "corrupt-line" | "torn-tail" | "missing-header" | "invalid-entry";
  message: string;
}

/** Everything read from one transcript file. */
export interface TranscriptReadResult {
  file: string;
  exists: boolean;
  header?: TranscriptHeader;
  /** Header version; 1 when a header has none. */
  version?: number;
  /** Entries in file order (v1 entries get synthetic ids `v1-<line>` chained in order). */
  entries: TranscriptEntry[];
  issues: TranscriptIssue[];
  /** Byte length of the whole-line prefix (where a repaired append starts). */
  validBytes: number;
  needsNewline: boolean;
}

/** Inputs for {@link readTranscript}. */
export interface ReadTranscriptParams {
  file: string;
  logger?: Logger;
}

function toEntry(params: {
  value: Record<string, unknown>;
  previous: TranscriptEntry | undefined;
  line: number;
}): TranscriptEntry | undefined {
  const { value, previous, line } = params;
  if (typeof value.type !== "string") return undefined;
  if (typeof value.id === "string") {
    const parentId = typeof value.parentId === "string" ? value.parentId : null;
    const timestamp = typeof value.timestamp === "string" ? value.timestamp : "";
    return { ...value, type: value.type, id: value.id, parentId, timestamp };
  }
  // Version 1 had no ids: chain entries in file order so the branch walk still works.
  const timestamp = typeof value.timestamp === "string" ? value.timestamp : "";
  return {
    ...value,
    type: value.type,
    id: `v1-${line}`,
    parentId: previous?.id ?? null,
    timestamp,
  };
}

/** Reads a transcript; never throws for bad content (issues are returned and logged). */
export function readTranscript(params: ReadTranscriptParams): TranscriptReadResult {
  const { file } = params;
  const logger = params.logger ?? silentLogger;
  if (!existsSync(file)) {
    return { file, exists: false, entries: [], issues: [], validBytes: 0, needsNewline: false };
  }
  const parsed = parseJsonLines(readFileSync(file));
  const issues: TranscriptIssue[] = [...parsed.issues];
  const entries: TranscriptEntry[] = [];
  let header: TranscriptHeader | undefined;
  parsed.records.forEach((record, index) => {
    if (index === 0 && isTranscriptHeader(record.value)) {
      header = record.value;
      return;
    }
    const entry = isJsonObject(record.value)
      ? toEntry({ value: record.value, previous: entries.at(-1), line: record.line })
      : undefined;
    if (entry) entries.push(entry);
    else
      issues.push({ line: record.line, kind: "invalid-entry", message: "not a transcript entry" });
  });
  if (!header && parsed.records.length > 0) {
    issues.push({ line: 1, kind: "missing-header", message: "first line is not a session header" });
  }
  issues.sort((a, b) => a.line - b.line);
  for (const issue of issues) logger.warn(`transcript ${file}:${issue.line}: ${issue.message}`);
  const version = header ? (typeof header.version === "number" ? header.version : 1) : undefined;
  return {
    file,
    exists: true,
    ...(header ? { header, version } : {}),
    entries,
    issues,
    validBytes: parsed.validBytes,
    needsNewline: parsed.needsNewline,
  };
}

/** When appended lines reach the disk: after each write, or when the owner calls fsync (store flush). */
export type TranscriptFsyncPolicy = "always" | "never";

/** Inputs for {@link openTranscript}. */
export interface OpenTranscriptParams {
  file: string;
  sessionId: string;
  /** Working directory recorded in a new header (the agent workspace). */
  cwd: string;
  clock: Clock;
  logger?: Logger;
  ids?: IdSource;
  fsync?: TranscriptFsyncPolicy;
  /** Called after every write (the store uses it to fsync dirty transcripts on flush). */
  onWrite?: (file: string, created: boolean, transcript: Transcript) => void;
  /** Keep one append fd open across writes (until {@link Transcript.release}); the store's cache sets it. */
  keepOpen?: boolean;
  parentSession?: string;
}

/** Opens for append an existing file only: a transcript archived by a reset must not be silently recreated. */
function openForAppend(file: string): number {
  try {
    return openSync(file, constants.O_WRONLY | constants.O_APPEND);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    throw new Error(`transcript ${file} is gone (session reset or deleted?); reopen the session`);
  }
}

/** Writes the whole line (one write call in practice; a short write is finished from a buffer). */
function writeWholeLine(fd: number, line: string): number {
  const length = Buffer.byteLength(line, "utf8");
  const first = writeSync(fd, line);
  if (first < length) {
    const bytes = Buffer.from(line, "utf8");
    let written = first;
    while (written < length) written += writeSync(fd, bytes, written);
  }
  return length;
}

/** What the file looked like after our last write or check (size, inode, mtime when known). */
interface DiskState {
  ino: number;
  size: number;
  mtimeMs: number | undefined;
}

/**
 * An open transcript: the entries read so far plus append. The leaf (parent of the next entry) starts
 * at the last entry, as in pi-coding-agent; `setLeaf` starts a new branch from an earlier entry.
 */
export class Transcript implements TranscriptApi {
  readonly file: string;
  readonly header: TranscriptHeader;
  private readonly tree: TranscriptTree;
  private pendingNewline: boolean;
  private fd: number | undefined;
  private keepOpen: boolean;
  private syncsInFlight = 0;
  private disk: DiskState | undefined;

  constructor(
    private readonly params: OpenTranscriptParams,
    loaded: {
      header: TranscriptHeader;
      entries: TranscriptEntry[];
      needsNewline: boolean;
      /** An append fd of the file, already open: kept like the one `keepOpen` keeps (pass it only then). */
      fd?: number;
    },
  ) {
    this.file = params.file;
    this.header = loaded.header;
    this.tree = new TranscriptTree(loaded.entries, this.file);
    this.pendingNewline = loaded.needsNewline;
    this.keepOpen = params.keepOpen === true;
    this.fd = loaded.fd;
  }

  /** Entries in append order (every branch). */
  get entries(): readonly TranscriptEntry[] {
    return this.tree.entries;
  }

  /** Id of the entry the next append attaches to. */
  get leafId(): string | null {
    return this.tree.leafId;
  }

  /** Moves the leaf to an existing entry (or null: before the first), so the next append branches. */
  setLeaf(id: string | null): void {
    this.tree.setLeaf(id);
  }

  /** Entries from the root to the leaf. */
  branch(): TranscriptEntry[] {
    return this.tree.branch();
  }

  /** Appends one entry as one line (id, parentId and timestamp filled in); returns it. */
  append(input: TranscriptEntryInput): TranscriptEntry {
    const prepared = this.tree.prepare(input, {
      now: this.params.clock.now(),
      ...(this.params.ids ? { ids: this.params.ids } : {}),
    });
    if (!prepared.created) return prepared.entry;
    const { entry } = prepared;
    const line = `${this.pendingNewline ? "\n" : ""}${JSON.stringify(entry)}\n`;
    this.writeLine(line);
    this.pendingNewline = false;
    this.tree.add(entry);
    this.params.onWrite?.(this.file, false, this);
    return entry;
  }

  /**
   * True when the file is still what this object wrote or last saw (same inode and size; same mtime
   * when no write happened since the last check). Costs one stat; the store's cache uses it.
   */
  matchesDisk(): boolean {
    const seen = this.disk;
    if (!seen) return false;
    const stat = statSync(this.file, { throwIfNoEntry: false });
    if (!stat || stat.ino !== seen.ino || stat.size !== seen.size) return false;
    if (seen.mtimeMs !== undefined && stat.mtimeMs !== seen.mtimeMs) return false;
    seen.mtimeMs = stat.mtimeMs;
    return true;
  }

  /** Bytes of the file as this object last saw or wrote it (0 once released): the cache's weight. */
  get byteSize(): number {
    return this.disk?.size ?? 0;
  }

  /** Records the file's current state (or `stat`, taken of it just now) as the baseline of
   *  {@link matchesDisk}. */
  noteDiskState(stat: Stats | undefined = statSync(this.file, { throwIfNoEntry: false })): void {
    this.disk = stat ? { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
  }

  /** Makes the appended lines durable: fsync of the kept fd, else of the file opened by path. */
  async sync(): Promise<void> {
    // No kept fd: by path (archived or removed since the write: nothing left to sync).
    if (this.fd === undefined) return fsyncPath(this.file);
    this.syncsInFlight += 1;
    try {
      await fsyncFd(this.fd);
    } finally {
      this.syncsInFlight -= 1;
      if (!this.keepOpen && this.syncsInFlight === 0) this.closeFd();
    }
  }

  /** Stops keeping the fd (closed now, or after an fsync in flight); later appends open per line. */
  release(): void {
    this.keepOpen = false;
    this.disk = undefined;
    if (this.syncsInFlight === 0) this.closeFd();
  }

  private writeLine(line: string): void {
    const fd = this.fd ?? openForAppend(this.file);
    try {
      const bytes = writeWholeLine(fd, line);
      if (this.disk) {
        this.disk.size += bytes;
        this.disk.mtimeMs = undefined;
      }
      if (this.params.fsync === "always") fsyncSync(fd);
    } finally {
      if (this.keepOpen) this.fd = fd;
      else if (this.fd === undefined) closeSync(fd);
    }
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  /** Appends a `message` entry. */
  appendMessage(message: TranscriptMessage): MessageEntry {
    return this.append({ type: "message", message }) as MessageEntry;
  }
}

/**
 * Opens a transcript for appending, creating it with a header when missing. A torn last line left by a
 * crash is cut off (with a warning) so the next line does not glue onto it. A file a crash left empty
 * (or holding only a torn header line) while it was being created holds nothing: it gets its header.
 */
export function openTranscript(params: OpenTranscriptParams): Transcript {
  const logger = params.logger ?? silentLogger;
  const read = readTranscript({ file: params.file, logger });
  const unborn =
    read.exists &&
    !read.header &&
    read.validBytes === 0 &&
    read.issues.every((issue) => issue.kind === "torn-tail");
  if (unborn) logger.warn(`transcript ${params.file}: no header (cut while created); writing it`);
  if (!read.exists || unborn) {
    const header = createTranscriptHeader({
      sessionId: params.sessionId,
      cwd: params.cwd,
      now: params.clock.now(),
      ...(params.parentSession ? { parentSession: params.parentSession } : {}),
    });
    mkdirSync(dirname(params.file), { recursive: true, mode: 0o700 });
    // "wx": never clobber a file that appeared meanwhile; "w" rewrites the empty one.
    const fd = openSync(params.file, unborn ? "w" : "wx", 0o600);
    try {
      writeSync(fd, `${JSON.stringify(header)}\n`);
      if (params.fsync === "always") fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const created = new Transcript(params, { header, entries: [], needsNewline: false });
    if (params.keepOpen) created.noteDiskState();
    params.onWrite?.(params.file, true, created);
    return created;
  }
  const header = read.header;
  if (!header) throw new Error(`transcript ${params.file} has no session header; not appending`);
  if ((read.version ?? 1) < MIN_APPENDABLE_VERSION) {
    throw new Error(
      `transcript ${params.file} is version ${read.version}; open it once with pi to migrate it`,
    );
  }
  if (read.issues.some((issue) => issue.kind === "torn-tail")) {
    logger.warn(`transcript ${params.file}: cutting the torn last line before appending`);
    truncateSync(params.file, read.validBytes);
  }
  const transcript = new Transcript(params, {
    header,
    entries: read.entries,
    needsNewline: read.needsNewline,
  });
  if (params.keepOpen) transcript.noteDiskState();
  return transcript;
}
