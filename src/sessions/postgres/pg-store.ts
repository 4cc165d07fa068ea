// One agent's session store on PostgreSQL: the same in-memory index as the file store (a Map plus the
// recency list, loaded from the `sessions` table when the registry opens), every change applied in
// memory at once and written through (one upsert per key), transcripts one row per entry. `reload(key)`
// re-reads a session another process may have written; `flush()` resolves once PostgreSQL has it all.
import { type Logger, silentLogger } from "../../lib/logger.js";
import { createSessionEntry, resetSessionEntry, withoutUndefined } from "../entry.js";
import {
  type MaintenanceSettings,
  planPrune,
  resolveMaintenanceSettings,
  type SessionMaintenanceConfig,
} from "../maintenance.js";
import type { RecencyNode } from "../recency.js";
import { SessionIndex } from "../session-index.js";
import type {
  CleanupReport,
  ListSessionsOptions,
  SessionLifecycleEvent,
  SessionListItem,
  SessionRemoval,
} from "../store.js";
import type { SessionStoreApi, SessionStoreStats } from "../store-api.js";
import type { TranscriptReadResult } from "../transcript.js";
import {
  type Clock,
  type IdSource,
  randomIds,
  type SessionEntry,
  type SessionInit,
  SessionNotFoundError,
  systemClock,
} from "../types.js";
import { type PgSessionBackend, parseEntry } from "./backend.js";
import { PgStoreTranscripts, TranscriptNotLoadedError } from "./pg-store-transcripts.js";
import type { PgTranscript } from "./pg-transcript.js";

/** Inputs of {@link PgSessionStore}. */
export interface PgSessionStoreParams {
  backend: PgSessionBackend;
  agentId: string;
  /** The sessions.json path a file store would use (new entries' `sessionFile`, display, exports). */
  storePath: string;
  /** Index rows read at open: key and entry JSON text. */
  rows: readonly [string, string][];
  clock?: Clock;
  logger?: Logger;
  ids?: IdSource;
  maintenance?: SessionMaintenanceConfig;
  /** Loaded transcripts kept in memory (default 256). */
  openTranscripts?: number;
  onLifecycle?: (event: SessionLifecycleEvent) => void;
  /** Run after close() flushed (a store that owns its pool closes it here). */
  onClose?: () => Promise<void>;
}

function parentDir(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** The PostgreSQL-backed store of one agent (see the file's header). */
export class PgSessionStore implements SessionStoreApi {
  readonly storePath: string;
  readonly sessionsDir: string;
  readonly readOnly = false;
  readonly maintenance: MaintenanceSettings;
  readonly agentId: string;
  private readonly index = new SessionIndex();
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly ids: IdSource;
  private readonly backend: PgSessionBackend;
  private readonly transcripts: PgStoreTranscripts;
  private readonly onLifecycle: ((event: SessionLifecycleEvent) => void) | undefined;
  private readonly onClose: (() => Promise<void>) | undefined;

  constructor(params: PgSessionStoreParams) {
    this.onClose = params.onClose;
    this.backend = params.backend;
    this.agentId = params.agentId;
    this.storePath = params.storePath;
    this.sessionsDir = parentDir(params.storePath);
    this.clock = params.clock ?? systemClock;
    this.logger = params.logger ?? silentLogger;
    this.ids = params.ids ?? randomIds;
    this.onLifecycle = params.onLifecycle;
    const resolved = resolveMaintenanceSettings(params.maintenance);
    for (const problem of resolved.problems) this.logger.warn(problem);
    this.maintenance = resolved.settings;
    this.transcripts = new PgStoreTranscripts({
      backend: this.backend,
      agentId: this.agentId,
      clock: this.clock,
      ids: this.ids,
      ...(params.openTranscripts ? { max: params.openTranscripts } : {}),
    });
    const loaded: Array<[string, SessionEntry]> = [];
    for (const [key, text] of params.rows) {
      const entry = this.parse(key, text);
      if (entry) loaded.push([key, entry]);
    }
    this.index.load(loaded);
  }

  /** Number of sessions. */
  get size(): number {
    return this.index.size;
  }

  /** Sessions of one agent (keys outside any agent count for each). */
  count(agentId: string): number {
    return this.index.count(agentId);
  }

  /** The entry of a key (immutable: changes go through update). */
  get(key: string): Readonly<SessionEntry> | undefined {
    return this.index.node(key)?.entry;
  }

  /** Whether the store has this key. */
  has(key: string): boolean {
    return this.index.has(key);
  }

  /** Sessions, most recently updated first, from the in-memory index. */
  list(options: ListSessionsOptions = {}): SessionListItem[] {
    return this.index.list(options, this.clock.now());
  }

  /** The store clock's time. */
  now(): number {
    return this.clock.now();
  }

  /** The session of a key, created on the first message. */
  getOrCreate(
    key: string,
    init?: SessionInit,
  ): { entry: Readonly<SessionEntry>; created: boolean } {
    const existing = this.index.node(key);
    if (existing) return { entry: existing.entry, created: false };
    const entry = createSessionEntry({
      sessionId: this.ids.sessionId(),
      sessionsDir: this.sessionsDir,
      now: this.clock.now(),
      ...(init ? { init } : {}),
    });
    this.transcripts.noteFresh(entry.sessionId);
    this.put(key, entry);
    this.onLifecycle?.({ type: "start", sessionKey: key, sessionId: entry.sessionId });
    return { entry, created: true };
  }

  /** Merges a patch and stamps `updatedAt` unless the patch sets it. */
  update(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry> {
    return this.merge(key, { ...patch, updatedAt: patch.updatedAt ?? this.clock.now() });
  }

  /** Merges a patch keeping `updatedAt`. */
  annotate(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry> {
    return this.merge(key, patch);
  }

  /** A new session under the same key; the old transcript's rows are kept, marked `reset`. */
  reset(key: string): SessionRemoval & { entry: Readonly<SessionEntry> } {
    const previous = this.require(key).entry;
    const now = this.clock.now();
    const archived = this.archive(previous, "reset");
    const entry = resetSessionEntry({
      previous,
      sessionId: this.ids.sessionId(),
      sessionsDir: this.sessionsDir,
      now,
    });
    this.transcripts.noteFresh(entry.sessionId);
    this.put(key, entry);
    if (this.onLifecycle) {
      const sessionId = previous.sessionId;
      this.onLifecycle({ type: "end", sessionKey: key, sessionId, reason: "reset" });
      this.onLifecycle({
        type: "start",
        sessionKey: key,
        sessionId: entry.sessionId,
        resumedFrom: sessionId,
      });
    }
    return { key, previous, entry, archivedTranscript: archived };
  }

  /** Removes a session; its transcript's rows are kept, marked `deleted`. */
  delete(key: string): SessionRemoval | undefined {
    const node = this.index.node(key);
    if (!node) return undefined;
    const archived = this.archive(node.entry, "deleted");
    this.backend.writer.putSession({ agentId: this.agentId, key, entry: null });
    this.index.remove(key);
    const { sessionId } = node.entry;
    this.onLifecycle?.({ type: "end", sessionKey: key, sessionId, reason: "deleted" });
    return { key, previous: node.entry, archivedTranscript: archived };
  }

  /** Prunes idle and excess sessions; archived transcripts past retention are deleted in PostgreSQL. */
  cleanup(options: { dryRun?: boolean } = {}): CleanupReport {
    const dryRun = options.dryRun ?? this.maintenance.mode === "warn";
    const now = this.clock.now();
    const settings = this.maintenance;
    const pruned = planPrune({ oldest: this.index.oldest, size: this.size, now, settings });
    const archivedTranscripts: string[] = [];
    if (!dryRun) {
      for (const item of pruned) {
        const removal = this.delete(item.key);
        if (removal?.archivedTranscript) archivedTranscripts.push(removal.archivedTranscript);
      }
      const keepMs = settings.resetArchiveRetentionMs ?? settings.pruneAfterMs;
      this.backend.writer.sweepArchives(this.agentId, now - keepMs);
    }
    if (pruned.length > 0) {
      const verb = dryRun ? "would prune" : "pruned";
      this.logger.info(
        `${this.backend.where} (${this.agentId}): ${verb} ${pruned.length} sessions`,
      );
    }
    return {
      storePath: this.storePath,
      dryRun,
      settings,
      pruned,
      archivedTranscripts,
      removedArchives: [],
      remaining: dryRun ? this.size - pruned.length : this.size,
    };
  }

  /** Transcripts are not files here. */
  transcriptPath(_key: string): string | undefined {
    return undefined;
  }

  /** A loaded (or not yet written) transcript; one only in PostgreSQL throws TranscriptNotLoadedError. */
  readTranscript(key: string): TranscriptReadResult | undefined {
    const entry = this.index.node(key)?.entry;
    if (!entry) return undefined;
    const read = this.transcripts.readSync(entry.sessionId);
    if (!read) throw new TranscriptNotLoadedError(key);
    return read;
  }

  /** A transcript, loaded from PostgreSQL when needed. */
  async readTranscriptAsync(key: string): Promise<TranscriptReadResult | undefined> {
    const entry = this.index.node(key)?.entry;
    return entry ? this.transcripts.read(entry.sessionId) : undefined;
  }

  /** A transcript for appending, when loaded or new; else TranscriptNotLoadedError. */
  openTranscript(key: string, options: { cwd: string }): PgTranscript {
    const { sessionId } = this.require(key).entry;
    const open = this.transcripts.openSync({ sessionKey: key, sessionId, cwd: options.cwd });
    if (!open) throw new TranscriptNotLoadedError(key);
    return open;
  }

  /** A transcript for appending, loaded from PostgreSQL when needed (the run path). */
  async openTranscriptAsync(key: string, options: { cwd: string }): Promise<PgTranscript> {
    const { sessionId } = this.require(key).entry;
    const open = await this.transcripts.open({ sessionKey: key, sessionId, cwd: options.cwd });
    // Reset meanwhile: the new session's transcript.
    if (this.require(key).entry.sessionId !== sessionId)
      return this.openTranscriptAsync(key, options);
    return open;
  }

  /** Re-reads a key's entry and transcript from PostgreSQL (after this store's queued writes land). */
  async reload(key: string): Promise<void> {
    await this.backend.writer.flush();
    const text = await this.backend.loadSession(this.agentId, key);
    const before = this.index.node(key);
    if (before) this.transcripts.forget(before.entry.sessionId);
    const entry = text === undefined ? undefined : this.parse(key, text);
    if (!entry) {
      if (before) this.index.remove(key);
      return;
    }
    this.index.set(key, entry);
    this.transcripts.forget(entry.sessionId);
    await this.transcripts.load(entry.sessionId);
  }

  /** Resolves once PostgreSQL has every change so far. */
  flush(): Promise<void> {
    return this.backend.writer.flush();
  }

  /** Same as flush (there is no file to rewrite). */
  snapshot(): Promise<void> {
    return this.flush();
  }

  /** Flushes and drops the loaded transcripts (the registry closes the pool, else onClose). */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.transcripts.clear();
      await this.onClose?.();
    }
  }

  /** Entries, loaded transcripts and the write queue's counters. */
  stats(): SessionStoreStats {
    const { writer } = this.backend;
    return {
      entries: this.size,
      transcriptsLoaded: this.transcripts.cached,
      transcriptLoads: this.transcripts.loads,
      pgBatches: writer.batches,
      pgStatements: writer.statements,
      pgBacklog: writer.backlog,
    };
  }

  private parse(key: string, text: string): SessionEntry | undefined {
    try {
      const entry = parseEntry(text);
      if (typeof entry === "object" && entry !== null && typeof entry.sessionId === "string")
        return entry;
      this.logger.warn(`${this.backend.where}: session ${key} has no sessionId; skipped`);
    } catch (err) {
      this.logger.warn(
        `${this.backend.where}: session ${key} is not JSON (${String(err)}); skipped`,
      );
    }
    return undefined;
  }

  private merge(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry> {
    const node = this.require(key);
    const next = withoutUndefined({ ...node.entry, ...patch });
    if (typeof next.sessionId !== "string" || next.sessionId === "") {
      throw new Error(`update of ${key} would remove its sessionId`);
    }
    this.put(key, next);
    return next;
  }

  private put(key: string, entry: SessionEntry): void {
    this.backend.writer.putSession({ agentId: this.agentId, key, entry });
    this.index.set(key, entry);
  }

  private require(key: string): RecencyNode {
    const node = this.index.node(key);
    if (!node) throw new SessionNotFoundError(key);
    return node;
  }

  private archive(entry: SessionEntry, reason: "reset" | "deleted"): string {
    this.transcripts.forget(entry.sessionId);
    this.backend.writer.archive({ sessionId: entry.sessionId, reason, at: this.clock.now() });
    return `${this.transcripts.locator(entry.sessionId)} (${reason})`;
  }
}
