// The session store as its callers see it, whatever holds it: the file store (sessions.json + JSONL,
// store.ts) or PostgreSQL (postgres/). Both keep a synchronous in-memory index; writes apply in memory
// at once and become durable by `flush()`. A worker calls `reload(key)` before a turn because another
// process may have written that session since (a no-op on files, where one process owns the store).
import type { MaintenanceSettings } from "./maintenance.js";
import type {
  CleanupReport,
  ListSessionsOptions,
  SessionListItem,
  SessionRemoval,
} from "./store.js";
import type { TranscriptReadResult } from "./transcript.js";
import type {
  MessageEntry,
  TranscriptEntry,
  TranscriptEntryInput,
  TranscriptHeader,
  TranscriptMessage,
} from "./transcript-format.js";
import type { SessionEntry, SessionInit } from "./types.js";

/** An open transcript: its entries (a tree) and appends that attach to the leaf. */
export interface TranscriptApi {
  /** Where it lives: a file path, or a `postgres:` locator naming the session id. */
  readonly file: string;
  readonly header: TranscriptHeader;
  /** Entries in append order (every branch). */
  readonly entries: readonly TranscriptEntry[];
  /** Id of the entry the next append attaches to. */
  readonly leafId: string | null;
  /** Moves the leaf to an existing entry (or null: before the first). */
  setLeaf(id: string | null): void;
  /** Entries from the root to the leaf. */
  branch(): TranscriptEntry[];
  /**
   * Appends one entry (parentId and timestamp filled in) and returns it. The id is a fresh one unless
   * `input.id` names one: then the append is idempotent (an entry with that id already there is
   * returned and nothing is written; PostgreSQL also drops a duplicate row another process wrote).
   */
  append(input: TranscriptEntryInput): TranscriptEntry;
  /** Appends a `message` entry. */
  appendMessage(message: TranscriptMessage): MessageEntry;
}

/** Counters every store reports (each backend adds its own). */
export interface SessionStoreStats {
  entries: number;
  [counter: string]: number;
}

/** One agent's session store: the index, the lifecycle and the transcripts. */
export interface SessionStoreApi {
  /** sessions.json path (the file store) or the path a file store would use (for display, exports). */
  readonly storePath: string;
  readonly sessionsDir: string;
  readonly readOnly: boolean;
  readonly maintenance: MaintenanceSettings;
  readonly size: number;
  /** Sessions of one agent (keys outside any agent count for each). */
  count(agentId: string): number;
  get(key: string): Readonly<SessionEntry> | undefined;
  has(key: string): boolean;
  /** Newest first, from the in-memory index. */
  list(options?: ListSessionsOptions): SessionListItem[];
  /** The store clock's time. */
  now(): number;
  getOrCreate(key: string, init?: SessionInit): { entry: Readonly<SessionEntry>; created: boolean };
  /** Merges a patch and stamps `updatedAt` (unless the patch sets it). */
  update(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry>;
  /** Merges a patch keeping `updatedAt`. */
  annotate(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry>;
  /** A new session under the same key; the old transcript is archived. */
  reset(key: string): SessionRemoval & { entry: Readonly<SessionEntry> };
  /** Removes a session (its transcript archived); undefined for an unknown key. */
  delete(key: string): SessionRemoval | undefined;
  /** Applies `session.maintenance` (prune, old archives). */
  cleanup(options?: { dryRun?: boolean }): CleanupReport;
  /** A file path of the session's transcript (undefined when not on disk, e.g. PostgreSQL). */
  transcriptPath(key: string): string | undefined;
  /** Reads a transcript from what the store holds now (PostgreSQL: loaded ones; else throws). */
  readTranscript(key: string): TranscriptReadResult | undefined;
  /** Reads a transcript, loading it when needed (works on every backend). */
  readTranscriptAsync(key: string): Promise<TranscriptReadResult | undefined>;
  openTranscript(key: string, options: { cwd: string }): TranscriptApi;
  openTranscriptAsync(key: string, options: { cwd: string }): Promise<TranscriptApi>;
  /** Re-reads one session's entry and transcript from the shared store (files: no-op). */
  reload(key: string): Promise<void>;
  /** Resolves once every change so far is durable. */
  flush(): Promise<void>;
  snapshot(): Promise<void>;
  close(): Promise<void>;
  stats(): SessionStoreStats;
}
