// The index journal `sessions.json.wal`: every index change is appended as one JSON line (a full entry or a
// deletion), so making a turn durable costs one small append + fsync instead of rewriting sessions.json.
// Snapshots rewrite sessions.json atomically and then drop the journal prefix they cover.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  truncateSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";
import type { Logger } from "../lib/logger.js";
import { fsyncFd, fsyncPath } from "./fsync.js";
import { isJsonObject, parseJsonLines } from "./jsonl.js";
import type { SessionEntry } from "./types.js";

/** One change: `e` upserts the whole entry under `k`; `d` deletes `k`. */
export type JournalRecord = { k: string; e: SessionEntry } | { k: string; d: 1 };

const HEADER = `${JSON.stringify({ type: "pincer-sessions-journal", version: 1 })}\n`;

/** Path of the journal beside a store file. */
export function journalPathFor(storePath: string): string {
  return `${storePath}.wal`;
}

function toRecord(value: unknown): JournalRecord | undefined {
  if (!isJsonObject(value) || typeof value.k !== "string") return undefined;
  if (value.d === 1) return { k: value.k, d: 1 };
  if (isJsonObject(value.e) && typeof value.e.sessionId === "string") {
    return { k: value.k, e: value.e as SessionEntry };
  }
  return undefined;
}

/** What a journal read found. */
export interface JournalReadResult {
  records: JournalRecord[];
  validBytes: number;
  torn: boolean;
  needsNewline: boolean;
}

/** Reads a journal; a torn last line and corrupt lines are skipped with a warning. */
export function readJournal(path: string, logger: Logger): JournalReadResult {
  if (!existsSync(path)) return { records: [], validBytes: 0, torn: false, needsNewline: false };
  const parsed = parseJsonLines(readFileSync(path));
  for (const issue of parsed.issues) logger.warn(`journal ${path}:${issue.line}: ${issue.message}`);
  const records: JournalRecord[] = [];
  for (const { value } of parsed.records) {
    const record = toRecord(value);
    if (record) records.push(record);
  }
  return {
    records,
    validBytes: parsed.validBytes,
    torn: parsed.issues.some((issue) => issue.kind === "torn-tail"),
    needsNewline: parsed.needsNewline,
  };
}

/** The writable journal of one store (opened lazily on the first write). */
export class IndexJournal {
  private fd: number | undefined;
  private size = 0;
  private synced = 0;
  private pendingNewline = false;
  /** Set when the file was created and its directory entry still needs an fsync. */
  created = false;

  constructor(readonly path: string) {}

  /** Bytes in the journal file. */
  get bytes(): number {
    return this.size;
  }

  /** Bytes of the journal an fsync (or the atomic write of a rebase) made durable. */
  get syncedBytes(): number {
    return this.synced;
  }

  /** True when bytes were written since the last fsync. */
  get unsynced(): boolean {
    return this.synced < this.size;
  }

  /** Adopts an existing journal: cuts a torn tail so appends start on a fresh line. */
  adopt(read: JournalReadResult): void {
    if (!existsSync(this.path)) return;
    if (read.torn) truncateSync(this.path, read.validBytes);
    this.size = read.validBytes;
    this.synced = this.size;
    this.pendingNewline = read.needsNewline;
  }

  /** Appends records in one write (no fsync; see {@link sync}). */
  append(records: readonly JournalRecord[]): void {
    if (records.length === 0) return;
    const fd = this.open();
    let text = this.pendingNewline ? "\n" : "";
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    this.pendingNewline = false;
    this.size += bytes.length;
  }

  /** Makes everything appended so far durable. */
  async sync(): Promise<void> {
    if (!this.unsynced) return;
    const target = this.size;
    // No kept fd (a failed rebase closed it): by path, so what was appended still gets synced.
    await (this.fd === undefined ? fsyncPath(this.path) : fsyncFd(this.fd));
    this.synced = Math.max(this.synced, target);
  }

  /** Makes everything appended so far durable now, blocking (see StorePersistence.commitNow). */
  syncNow(): void {
    if (!this.unsynced) return;
    const fd = this.fd ?? openSync(this.path, "r");
    try {
      fsyncSync(fd);
    } finally {
      if (fd !== this.fd) closeSync(fd);
    }
    this.synced = this.size;
  }

  /**
   * After a snapshot that covers the first `coveredBytes`, replaces the journal by its uncovered tail
   * (atomic write + fsync). Must not run while a {@link sync} is in flight.
   */
  rebase(coveredBytes: number): void {
    if (!existsSync(this.path)) return;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const whole = readFileSync(this.path);
    const tail = whole.subarray(Math.min(coveredBytes, whole.length));
    const body = Buffer.concat([Buffer.from(HEADER), tail.length > 0 ? tail : Buffer.alloc(0)]);
    writeFileAtomic(this.path, body);
    this.fd = openSync(this.path, "a", 0o600);
    this.size = body.length;
    this.synced = this.size;
    this.pendingNewline = false;
  }

  /** True when the journal holds nothing beyond its header. */
  get empty(): boolean {
    return this.size <= HEADER.length;
  }

  /** Closes the file; with `remove`, deletes it (after a final snapshot made it redundant). */
  close(remove: boolean): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (remove && existsSync(this.path)) unlinkSync(this.path);
    this.size = 0;
    this.synced = 0;
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    const fresh = !existsSync(this.path) || this.size === 0;
    if (fresh) mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    this.fd = openSync(this.path, "a", 0o600);
    if (fresh) {
      writeSync(this.fd, HEADER);
      this.size = Buffer.byteLength(HEADER);
      this.created = true;
    }
    return this.fd;
  }
}
