// A transcript held in memory and written through to PostgreSQL: one row per entry (session id, entry
// id, parent id, seq, JSON), appended with `ON CONFLICT DO NOTHING` so a replayed append is harmless.
import type { TranscriptApi } from "../store-api.js";
import type { TranscriptReadResult } from "../transcript.js";
import type {
  MessageEntry,
  TranscriptEntry,
  TranscriptEntryInput,
  TranscriptHeader,
  TranscriptMessage,
} from "../transcript-format.js";
import { TranscriptTree } from "../transcript-tree.js";
import type { Clock, IdSource } from "../types.js";
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
  private readonly tree: TranscriptTree;

  constructor(private readonly params: PgTranscriptParams) {
    this.file = params.file;
    this.header = params.header;
    this.tree = new TranscriptTree(params.entries, this.file);
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

  /** Appends one entry in memory and queues its row; returns it. */
  append(input: TranscriptEntryInput): TranscriptEntry {
    const prepared = this.tree.prepare(input, {
      now: this.params.clock.now(),
      ...(this.params.ids ? { ids: this.params.ids } : {}),
    });
    if (!prepared.created) return prepared.entry;
    const { entry } = prepared;
    this.params.writer.putEntry({
      sessionId: this.params.sessionId,
      entryId: entry.id,
      parentId: entry.parentId,
      seq: this.tree.entries.length,
      json: JSON.stringify(entry),
    });
    this.tree.add(entry);
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
      entries: [...this.tree.entries],
      issues: [],
      validBytes: 0,
      needsNewline: false,
    };
  }
}
