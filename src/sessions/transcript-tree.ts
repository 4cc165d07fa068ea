// A transcript's entry tree in memory, shared by the file and PostgreSQL transcripts: the entries in
// append order, their ids, the leaf the next append attaches to, and how a new entry is made (fresh
// id, parent = leaf, timestamp; a caller-chosen id already present returns that entry instead, which
// makes a replayed append harmless). The owners decide where an entry is written.
import {
  currentBranch,
  type TranscriptEntry,
  type TranscriptEntryInput,
} from "./transcript-format.js";
import { type IdSource, randomIds } from "./types.js";

/** What an append would add: a new entry to write, or the one already there under its chosen id. */
export type PreparedEntry = { entry: TranscriptEntry; created: boolean };

/** Entries, ids and leaf of one transcript. */
export class TranscriptTree {
  private readonly ids = new Set<string>();
  private leaf: string | null;

  /** `label` names the transcript in errors (its file or locator). */
  constructor(
    private readonly list: TranscriptEntry[],
    private readonly label: string,
  ) {
    for (const entry of list) this.ids.add(entry.id);
    this.leaf = list.at(-1)?.id ?? null;
  }

  /** Entries in append order (every branch). */
  get entries(): readonly TranscriptEntry[] {
    return this.list;
  }

  /** Id of the entry the next append attaches to. */
  get leafId(): string | null {
    return this.leaf;
  }

  /** Moves the leaf to an existing entry (or null: before the first), so the next append branches. */
  setLeaf(id: string | null): void {
    if (id !== null && !this.ids.has(id)) throw new Error(`no entry ${id} in ${this.label}`);
    this.leaf = id;
  }

  /** Entries from the root to the leaf. */
  branch(): TranscriptEntry[] {
    return currentBranch(this.list, this.leaf);
  }

  /** The entry `input` makes (not added yet: {@link add} once written), or the existing one. */
  prepare(input: TranscriptEntryInput, made: { now: number; ids?: IdSource }): PreparedEntry {
    const { type, parentId, timestamp, id: wanted, ...rest } = input;
    const chosen = typeof wanted === "string" && wanted !== "" ? wanted : undefined;
    if (chosen !== undefined && this.ids.has(chosen)) {
      const existing = this.list.find((e) => e.id === chosen);
      if (existing) return { entry: existing, created: false };
    }
    const entry: TranscriptEntry = {
      type,
      id: chosen ?? this.newId(made.ids ?? randomIds),
      parentId: parentId === undefined ? this.leaf : parentId,
      timestamp: timestamp ?? new Date(made.now).toISOString(),
      ...rest,
    };
    return { entry, created: true };
  }

  /** Records a written entry; it becomes the leaf. */
  add(entry: TranscriptEntry): void {
    this.list.push(entry);
    this.ids.add(entry.id);
    this.leaf = entry.id;
  }

  private newId(ids: IdSource): string {
    for (let attempt = 0; attempt < 100; attempt++) {
      const id = ids.entryId();
      if (!this.ids.has(id)) return id;
    }
    return ids.sessionId();
  }
}
