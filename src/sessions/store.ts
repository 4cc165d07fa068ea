// One agent's session store: the `sessions.json` index held in memory (a Map plus a recency list), the
// session lifecycle (create on first message, reset, delete, retention) and access to transcripts.
// Writes need the state-dir lock; without it the store is a read-only view (what the CLI uses for reads).

import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { type Logger, silentLogger } from "../lib/logger.js";
import { archiveTranscript, listArchives } from "./archive.js";
import { createSessionEntry, resetSessionEntry, withoutUndefined } from "./entry.js";
import type { StateDirLock } from "./lock.js";
import {
  type MaintenanceSettings,
  type PrunedSession,
  planArchiveSweep,
  planPrune,
  resolveMaintenanceSettings,
  type SessionMaintenanceConfig,
} from "./maintenance.js";
import type { RecencyNode } from "./recency.js";
import { type ListSessionsOptions, SessionIndex, type SessionListItem } from "./session-index.js";
import type { SessionStoreApi, SessionStoreStats } from "./store-api.js";
import {
  type PersistenceStats,
  type Scheduler,
  StorePersistence,
  systemScheduler,
} from "./store-persistence.js";
import { StoreTranscripts, type TranscriptDurability } from "./store-transcripts.js";
import { readTranscript, type Transcript, type TranscriptReadResult } from "./transcript.js";
import {
  DEFAULT_OPEN_TRANSCRIPT_BYTES,
  DEFAULT_OPEN_TRANSCRIPTS,
  TranscriptCache,
} from "./transcript-cache.js";
import {
  isRecordedElsewhere,
  recordedTranscriptPath,
  resolveTranscriptPath,
} from "./transcript-location.js";
import {
  type Clock,
  type IdSource,
  randomIds,
  type SessionEntry,
  type SessionInit,
  SessionNotFoundError,
  SessionStoreReadOnlyError,
  systemClock,
} from "./types.js";

export type { TranscriptDurability } from "./store-transcripts.js";

/** Inputs for {@link openSessionStore}. */
export interface OpenSessionStoreParams {
  /** Path of `sessions.json` (from `resolveAgent(...).sessionStorePath`). */
  storePath: string;
  /** The held state-dir lock; without it the store is read-only. */
  lock?: StateDirLock;
  clock?: Clock;
  logger?: Logger;
  ids?: IdSource;
  /** `session.maintenance` from the config. */
  maintenance?: SessionMaintenanceConfig;
  transcriptDurability?: TranscriptDurability;
  /** Minimum delay between background rewrites of sessions.json (default 5000 ms). */
  snapshotIntervalMs?: number;
  scheduler?: Scheduler;
  /** Transcripts kept open (parsed, with an append fd) between turns; default 128. */
  openTranscripts?: number;
  /** Bytes of JSONL those open transcripts may hold together; default 16 MiB. */
  openTranscriptBytes?: number;
  /** Told when a session starts (a new id under a key) or ends (reset, deleted, pruned). */
  onLifecycle?: (event: SessionLifecycleEvent) => void;
}

/** A session starting or ending (what plugin `session_start` / `session_end` hooks observe). */
export type SessionLifecycleEvent =
  | { type: "start"; sessionKey: string; sessionId: string; resumedFrom?: string }
  | { type: "end"; sessionKey: string; sessionId: string; reason: "reset" | "deleted" };

export type { ListSessionsOptions, SessionListItem } from "./session-index.js";

/** What a reset or delete did. */
export interface SessionRemoval {
  key: string;
  previous: Readonly<SessionEntry>;
  /** Where the old transcript went, when there was one. */
  archivedTranscript?: string;
}

/** What {@link SessionStore.cleanup} did (or, with dryRun, would do). */
export interface CleanupReport {
  storePath: string;
  dryRun: boolean;
  settings: MaintenanceSettings;
  pruned: PrunedSession[];
  archivedTranscripts: string[];
  removedArchives: string[];
  remaining: number;
}

/** Opens (loads) a store; cheap to call once per agent at start-up. */
export function openSessionStore(params: OpenSessionStoreParams): SessionStore {
  return new SessionStore(params);
}

/** What the file store's {@link SessionStore.stats} reports. */
export type FileStoreStats = SessionStoreStats &
  PersistenceStats & { journalBytes: number; transcriptLookups: number };

/** The in-memory index of one store file and its lifecycle operations. */
export class SessionStore implements SessionStoreApi {
  readonly storePath: string;
  readonly sessionsDir: string;
  readonly readOnly: boolean;
  readonly maintenance: MaintenanceSettings;
  private readonly index = new SessionIndex();
  private readonly persistence: StorePersistence;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly ids: IdSource;
  private readonly transcripts: TranscriptCache;
  private readonly opener: StoreTranscripts;
  private readonly onLifecycle: ((event: SessionLifecycleEvent) => void) | undefined;

  constructor(params: OpenSessionStoreParams) {
    this.onLifecycle = params.onLifecycle;
    this.storePath = params.storePath;
    this.sessionsDir = dirname(params.storePath);
    this.readOnly = params.lock === undefined;
    this.clock = params.clock ?? systemClock;
    this.logger = params.logger ?? silentLogger;
    this.ids = params.ids ?? randomIds;
    this.transcripts = new TranscriptCache({
      count: params.openTranscripts ?? DEFAULT_OPEN_TRANSCRIPTS,
      bytes: params.openTranscriptBytes ?? DEFAULT_OPEN_TRANSCRIPT_BYTES,
    });
    const resolved = resolveMaintenanceSettings(params.maintenance);
    for (const problem of resolved.problems) this.logger.warn(problem);
    this.maintenance = resolved.settings;
    this.persistence = new StorePersistence({
      storePath: params.storePath,
      readOnly: this.readOnly,
      clock: this.clock,
      logger: this.logger,
      scheduler: params.scheduler ?? systemScheduler,
      snapshotIntervalMs: params.snapshotIntervalMs ?? 5_000,
      capture: () => this.index.entries(),
    });
    this.index.load(this.persistence.load());
    this.opener = new StoreTranscripts({
      sessionsDir: this.sessionsDir,
      cache: this.transcripts,
      persistence: this.persistence,
      durability: params.transcriptDurability ?? "on-flush",
      clock: this.clock,
      logger: this.logger,
      ids: this.ids,
      entryOf: (key) => this.require(key).entry,
      recordPath: (key, sessionFile) => this.merge(key, { sessionFile }),
    });
  }

  /** Number of sessions. */
  get size(): number {
    return this.index.size;
  }

  /** Number of sessions of one agent (keys outside any agent count for each), without listing them. */
  count(agentId: string): number {
    return this.index.count(agentId);
  }

  /** The entry of a session key (treat it as immutable: changes go through {@link update}). */
  get(key: string): Readonly<SessionEntry> | undefined {
    return this.index.node(key)?.entry;
  }

  /** Whether the store has this key. */
  has(key: string): boolean {
    return this.index.has(key);
  }

  /** Sessions, most recently updated first; reads only the in-memory index (never transcripts). */
  list(options: ListSessionsOptions = {}): SessionListItem[] {
    return this.index.list(options, this.clock.now());
  }

  /** The time on the store's clock: what its entries are stamped with (lifecycle policies read it). */
  now(): number {
    return this.clock.now();
  }

  /** The session of a key, created (new id, transcript path, zeroed counters) on the first message. */
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
    this.put(key, entry);
    this.onLifecycle?.({ type: "start", sessionKey: key, sessionId: entry.sessionId });
    return { entry, created: true };
  }

  /**
   * Records activity: merges a patch (a field set to undefined is removed) and sets `updatedAt` to now
   * unless the patch sets it. Costs microseconds; the disk write is coalesced (see {@link flush}).
   */
  update(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry> {
    return this.merge(key, { ...patch, updatedAt: patch.updatedAt ?? this.clock.now() });
  }

  /** Like {@link update} but keeps `updatedAt`: for metadata that is not activity (labels, pins). */
  annotate(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry> {
    return this.merge(key, patch);
  }

  /** Starts a new session under the same key; the old transcript is kept as `<file>.reset.<ts>`. */
  reset(key: string): SessionRemoval & { entry: Readonly<SessionEntry> } {
    this.assertWritable();
    const previous = this.require(key).entry;
    const now = this.clock.now();
    const archived = this.archive(previous, "reset", now);
    const entry = resetSessionEntry({
      previous,
      sessionId: this.ids.sessionId(),
      sessionsDir: this.sessionsDir,
      now,
    });
    this.put(key, entry);
    if (this.onLifecycle) {
      this.onLifecycle({
        type: "end",
        sessionKey: key,
        sessionId: previous.sessionId,
        reason: "reset",
      });
      const resumedFrom = previous.sessionId;
      this.onLifecycle({ type: "start", sessionKey: key, sessionId: entry.sessionId, resumedFrom });
    }
    return { key, previous, entry, ...(archived ? { archivedTranscript: archived } : {}) };
  }

  /** Removes a session; its transcript is kept as `<file>.deleted.<ts>`. Undefined if the key is unknown. */
  delete(key: string): SessionRemoval | undefined {
    this.assertWritable();
    const node = this.index.node(key);
    if (!node) return undefined;
    const archived = this.archive(node.entry, "deleted", this.clock.now());
    this.persistence.record(key, null);
    this.index.remove(key);
    const { sessionId } = node.entry;
    this.onLifecycle?.({ type: "end", sessionKey: key, sessionId, reason: "deleted" });
    return { key, previous: node.entry, ...(archived ? { archivedTranscript: archived } : {}) };
  }

  /**
   * Applies `session.maintenance`: prunes idle and excess sessions (archiving their transcripts) and
   * removes archives older than the retention window. `dryRun` defaults to true in `warn` mode.
   */
  cleanup(options: { dryRun?: boolean } = {}): CleanupReport {
    const dryRun = options.dryRun ?? this.maintenance.mode === "warn";
    if (!dryRun) this.assertWritable();
    const now = this.clock.now();
    const settings = this.maintenance;
    const pruned = planPrune({ oldest: this.index.oldest, size: this.size, now, settings });
    const archivedTranscripts: string[] = [];
    if (!dryRun) {
      for (const item of pruned) {
        const removal = this.delete(item.key);
        if (removal?.archivedTranscript) archivedTranscripts.push(removal.archivedTranscript);
      }
    }
    const sweep = planArchiveSweep({ archives: listArchives(this.sessionsDir), now, settings });
    if (!dryRun) for (const archive of sweep) rmSync(archive.path, { force: true });
    if (sweep.length > 0 && !dryRun) this.persistence.noteDirChange(this.sessionsDir);
    const verb = dryRun ? "would prune" : "pruned";
    if (pruned.length > 0 || sweep.length > 0) {
      const message = `${this.storePath}: ${verb} ${pruned.length} sessions and ${sweep.length} old archives`;
      if (dryRun && settings.mode === "warn") this.logger.warn(message);
      else this.logger.info(message);
    }
    return {
      storePath: this.storePath,
      dryRun,
      settings,
      pruned,
      archivedTranscripts,
      removedArchives: sweep.map((archive) => archive.path),
      remaining: dryRun ? this.size - pruned.length : this.size,
    };
  }

  /** Path of a session's transcript, or undefined when the key is unknown or its id is unsafe. */
  transcriptPath(key: string): string | undefined {
    const entry = this.index.node(key)?.entry;
    return entry ? resolveTranscriptPath(this.sessionsDir, entry) : undefined;
  }

  /** Reads a session's transcript (never fatal: torn and corrupt lines become issues). */
  readTranscript(key: string): TranscriptReadResult | undefined {
    const file = this.transcriptPath(key);
    return file ? readTranscript({ file, logger: this.logger }) : undefined;
  }

  /** {@link readTranscript} as a promise (the interface every backend shares). */
  readTranscriptAsync(key: string): Promise<TranscriptReadResult | undefined> {
    return Promise.resolve(this.readTranscript(key));
  }

  /** One process owns a file store, so nothing changed behind its back: a no-op. */
  reload(_key: string): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Opens a session's transcript for appending (created with a header on first use). Kept open in a
   * bounded cache: the next turn gets the same object unless the file changed on disk meanwhile.
   * A file still to be created waits for its index entry's fsync, blocking.
   */
  openTranscript(key: string, options: { cwd: string }): Transcript {
    this.assertWritable();
    return this.opener.open(key, options.cwd);
  }

  /**
   * {@link openTranscript} without blocking the event loop on an fsync (the run path): a file still
   * to be created first waits for its index entry to be durable, joining the next group flush.
   */
  openTranscriptAsync(key: string, options: { cwd: string }): Promise<Transcript> {
    this.assertWritable();
    return this.opener.openAsync(key, options.cwd);
  }

  /** Makes every change so far durable: resolve it before delivering a reply. */
  flush(): Promise<void> {
    return this.persistence.flush();
  }

  /** Rewrites sessions.json now (normally done in the background). */
  snapshot(): Promise<void> {
    return this.persistence.snapshot();
  }

  /** Flushes, writes a final sessions.json and removes the journal; the store is unusable afterwards. */
  close(): Promise<void> {
    return this.persistence.close().finally(() => this.transcripts.clear());
  }

  /** Entry count, write counters and full transcript lookups. */
  stats(): FileStoreStats {
    return {
      ...this.persistence.stats,
      entries: this.size,
      journalBytes: this.persistence.journalBytes,
      transcriptLookups: this.opener.lookups,
    };
  }

  private merge(key: string, patch: Partial<SessionEntry>): Readonly<SessionEntry> {
    const node = this.require(key);
    const next = withoutUndefined({ ...node.entry, ...patch });
    // A path recorded elsewhere (state dir moved from another HOME) is rewritten to the one in use.
    if (isRecordedElsewhere(this.sessionsDir, next)) {
      next.sessionFile = recordedTranscriptPath(this.sessionsDir, next);
    }
    if (typeof next.sessionId !== "string" || next.sessionId === "") {
      throw new Error(`update of ${key} would remove its sessionId`);
    }
    this.put(key, next);
    return next;
  }

  private put(key: string, entry: SessionEntry): void {
    this.persistence.record(key, entry); // throws first when read-only
    this.index.set(key, entry);
  }

  private require(key: string): RecencyNode {
    const node = this.index.node(key);
    if (!node) throw new SessionNotFoundError(key);
    return node;
  }

  private assertWritable(): void {
    if (this.readOnly) throw new SessionStoreReadOnlyError(this.storePath);
  }

  private archive(
    entry: SessionEntry,
    reason: "reset" | "deleted",
    now: number,
  ): string | undefined {
    const file = resolveTranscriptPath(this.sessionsDir, entry);
    if (file) this.transcripts.forget(file);
    const outcome = archiveTranscript({ file, sessionsDir: this.sessionsDir, reason, now });
    if (outcome.status === "outside") {
      this.logger.warn(`left ${outcome.from} in place: it is outside ${this.sessionsDir}`);
      return undefined;
    }
    if (outcome.status !== "archived") return undefined;
    this.persistence.noteDirChange(dirname(outcome.to));
    return outcome.to;
  }
}
