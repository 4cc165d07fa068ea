// A transcript held in memory and written through to PostgreSQL: one row per entry (session id, entry
// id, parent id, seq, JSON), appended with `ON CONFLICT DO NOTHING` so a replayed append is harmless.
import type { TranscriptApi } from "../store-api.js";
import type { TranscriptReadResult } from "../transcript.js";
import {
  currentBranch,
  type MessageEntry,
  type TranscriptEntry,
  type TranscriptEntryInput,
  type TranscriptHeader,
  type TranscriptMessage,
} from "../transcript-format.js";
import { type Clock, type IdSource, randomIds } from "../types.js";
import type { StoredTranscript } from "./backend.js";
import type { PgWriter } from "./writer.js";

/** A stored transcript's entries as the file reader would give them (v1 ids were assigned on import). */
export function storedEntries(stored: StoredTranscript): TranscriptEntry[] {
  return stored.entries.map((row) => {
    const value = JSON.parse(row.json) as Record<string, unknown>;
    return {
      ...value,
      type: typeof value.type === "string" ? value.type : "unknown",
      id: row.id,
      parentId: row.parentId,
      timestamp: typeof value.timestamp === "string" ? value.timestamp : "",
    };
  });
}

/** Inputs of {@link PgTranscript}. */
export interface PgTranscriptParams {
  /** Locator shown as `file` (`postgres://host:port/db?schema=…#<sessionId>`). */
  file: string;
  sessionId: string;
  writer: PgWriter;
  clock: Clock;
  ids?: IdSource;
  header: TranscriptHeader;
  entries: TranscriptEntry[];
}

/** An open PostgreSQL transcript: same contract as the file `Transcript`. */
export class PgTranscript implements TranscriptApi {
  readonly file: string;
  readonly header: TranscriptHeader;
  private readonly list: TranscriptEntry[];
  private readonly known = new Set<string>();
  private leaf: string | null;

  constructor(private readonly params: PgTranscriptParams) {
    this.file = params.file;
    this.header = params.header;
    this.list = params.entries;
    for (const entry of this.list) this.known.add(entry.id);
    this.leaf = this.list.at(-1)?.id ?? null;
  }

  /** Entries in append order (every branch). */
  get entries(): readonly TranscriptEntry[] {
    return this.list;
  }

  /** Id of the entry the next append attaches to. */
  get leafId(): string | null {
    return this.leaf;
  }

  /** Moves the leaf to an existing entry (or null), so the next append branches. */
  setLeaf(id: string | null): void {
    if (id !== null && !this.known.has(id)) throw new Error(`no entry ${id} in ${this.file}`);
    this.leaf = id;
  }

  /** Entries from the root to the leaf. */
  branch(): TranscriptEntry[] {
    return currentBranch(this.list, this.leaf);
  }

  /** Appends one entry in memory and queues its row; returns it. */
  append(input: TranscriptEntryInput): TranscriptEntry {
    const { type, parentId, timestamp, id: wanted, ...rest } = input;
    // A caller-chosen id makes the append idempotent: the entry already there is returned as is.
    const chosen = typeof wanted === "string" && wanted !== "" ? wanted : undefined;
    if (chosen !== undefined && this.known.has(chosen)) {
      const existing = this.list.find((e) => e.id === chosen);
      if (existing) return existing;
    }
    const entry: TranscriptEntry = {
      type,
      id: chosen ?? this.newId(),
      parentId: parentId === undefined ? this.leaf : parentId,
      timestamp: timestamp ?? new Date(this.params.clock.now()).toISOString(),
      ...rest,
    };
    this.params.writer.putEntry({
      sessionId: this.params.sessionId,
      entryId: entry.id,
      parentId: entry.parentId,
      seq: this.list.length,
      json: JSON.stringify(entry),
    });
    this.list.push(entry);
    this.known.add(entry.id);
    this.leaf = entry.id;
    return entry;
  }

  /** Appends a `message` entry. */
  appendMessage(message: TranscriptMessage): MessageEntry {
    return this.append({ type: "message", message }) as MessageEntry;
  }

  /** What `readTranscript` returns for this transcript. */
  read(): TranscriptReadResult {
    const version = typeof this.header.version === "number" ? this.header.version : 1;
    return {
      file: this.file,
      exists: true,
      header: this.header,
      version,
      entries: [...this.list],
      issues: [],
      validBytes: 0,
      needsNewline: false,
    };
  }

  private newId(): string {
    const ids = this.params.ids ?? randomIds;
    for (let attempt = 0; attempt < 100; attempt++) {
      const id = ids.entryId();
      if (!this.known.has(id)) return id;
    }
    return ids.sessionId();
  }
}
