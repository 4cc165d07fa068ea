// How a store's index reaches the disk. Changes are coalesced: every change made in one event-loop turn
// becomes one journal append (setImmediate), `flush()` fsyncs the journal and the transcripts written since
// (group commit: concurrent callers share one fsync), and a background snapshot rewrites sessions.json
// atomically at most every `snapshotIntervalMs` (stretched to 20x the last snapshot's duration, so a
// 100,000-entry store spends under 5% of its time rewriting), then drops the journal prefix it covers.
// A key's entry is durable once its latest record lies in the fsynced prefix of the journal (and the
// journal's own directory entry is fsynced) or is covered by a snapshot: `commit(key)` waits for that
// off the event loop (joining the next group fsync), `commitNow(key)` forces it blocking, and both
// do nothing for a key already durable, whatever other keys still wait.

import { dirname } from "node:path";
import { performance } from "node:perf_hooks";
import type { Logger } from "../lib/logger.js";
import { fsyncDirSync, fsyncPath } from "./fsync.js";
import { IndexJournal, journalPathFor, readJournal } from "./journal.js";
import { loadStoreFile, quarantineCorrupt, serializeStore, writeStoreFile } from "./store-file.js";
import { type Clock, type SessionEntry, SessionStoreReadOnlyError } from "./types.js";

/** Timer functions for background snapshots (tests pass a manual one). */
export interface Scheduler {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real timers, unref'd so a pending snapshot never keeps the process alive (the journal has the data). */
export const systemScheduler: Scheduler = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Something that can make its own writes durable (an open transcript with its kept fd). */
export interface FileSyncer {
  sync(): Promise<void>;
}

/** Write counters, for tests and monitoring. */
export interface PersistenceStats {
  journalWrites: number;
  journalRecords: number;
  snapshotWrites: number;
  fsyncBatches: number;
  /** fsyncs that blocked the event loop (commitNow for a key not durable yet). */
  blockingSyncs: number;
  lastSnapshotMs: number;
  lastSnapshotBytes: number;
}

/** Inputs of {@link StorePersistence}. */
export interface StorePersistenceParams {
  storePath: string;
  readOnly: boolean;
  clock: Clock;
  logger: Logger;
  scheduler: Scheduler;
  snapshotIntervalMs: number;
  /** Returns the current index in file order (entries are never mutated in place). */
  capture: () => Array<[string, SessionEntry]>;
}

/** The write path of one store: journal, fsync batching and snapshots. */
export class StorePersistence {
  readonly stats: PersistenceStats = {
    journalWrites: 0,
    journalRecords: 0,
    snapshotWrites: 0,
    fsyncBatches: 0,
    blockingSyncs: 0,
    lastSnapshotMs: 0,
    lastSnapshotBytes: 0,
  };
  private readonly journal: IndexJournal;
  private readonly pending = new Map<string, SessionEntry | null>();
  /** Paths to fsync on the next flush; a syncer, when known, fsyncs its own kept fd. */
  private readonly dirtyPaths = new Map<string, FileSyncer | undefined>();
  /** Journal size right after the append that holds each key's latest record (cleared by a rebase). */
  private readonly journaledAt = new Map<string, number>();
  /** Times the journal file was created, and how many of them a directory fsync covers. */
  private journalCreations = 0;
  private journalDirSynced = 0;
  private writeScheduled = false;
  private writeSeq = 0;
  private syncedSeq = 0;
  private syncing: Promise<void> | undefined;
  private snapshotting: Promise<void> | undefined;
  private snapshotTimer: unknown;
  private changedSinceSnapshot = false;
  private closed = false;

  constructor(private readonly params: StorePersistenceParams) {
    this.journal = new IndexJournal(journalPathFor(params.storePath));
  }

  /** Loads sessions.json (recovering from .bak) and replays the journal; returns the index in file order. */
  load(): Array<[string, SessionEntry]> {
    const { storePath, logger, readOnly } = this.params;
    const file = loadStoreFile(storePath, logger);
    const index = new Map(file.entries);
    const journal = readJournal(this.journal.path, logger);
    for (const record of journal.records) {
      if ("d" in record) index.delete(record.k);
      else index.set(record.k, record.e);
    }
    if (!readOnly) {
      this.journal.adopt(journal);
      if (file.corrupt) {
        const aside = quarantineCorrupt({
          storePath,
          restoreFrom: file.recoveredFrom,
          now: this.params.clock.now(),
        });
        logger.warn(`kept the unreadable ${storePath} as ${aside}`);
      }
      if (file.corrupt || journal.records.length > 0) {
        this.changedSinceSnapshot = true;
        this.scheduleSnapshot(0);
      }
    }
    return [...index];
  }

  /** Records a change (null: deletion); throws before anything changes when the store is read-only. */
  record(key: string, entry: SessionEntry | null): void {
    if (this.params.readOnly) throw new SessionStoreReadOnlyError(this.params.storePath);
    if (this.closed) throw new Error(`session store ${this.params.storePath} is closed`);
    this.pending.set(key, entry);
    this.writeSeq += 1;
    this.changedSinceSnapshot = true;
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    setImmediate(() => {
      try {
        this.writePending();
      } catch (err) {
        // Kept pending: the next flush retries and reports the error to its caller.
        this.params.logger.warn(
          `journal write for ${this.params.storePath} failed: ${String(err)}`,
        );
      }
    });
  }

  /** Notes a written transcript (and its directory when created) for the next flush's fsync. */
  noteWrite(path: string, dirChanged: boolean, syncer?: FileSyncer): void {
    this.dirtyPaths.set(path, syncer);
    if (dirChanged) this.dirtyPaths.set(dirname(path), undefined);
    this.writeSeq += 1;
  }

  /** Notes a directory whose entries changed (rename, unlink) for the next flush's fsync. */
  noteDirChange(dir: string): void {
    this.dirtyPaths.set(dir, undefined);
    this.writeSeq += 1;
  }

  /** Makes every change and transcript append made so far durable (journal + transcript fsync). */
  async flush(): Promise<void> {
    if (this.params.readOnly) return;
    this.writePending();
    const target = this.writeSeq;
    while (this.syncedSeq < target) {
      if (!this.syncing) {
        this.syncing = this.runSync().finally(() => {
          this.syncing = undefined;
        });
      }
      await this.syncing;
    }
  }

  /** True when `key`'s latest change (or deletion) is on disk for good: a crash now cannot lose it. */
  isDurable(key: string): boolean {
    if (this.params.readOnly) return true;
    if (this.pending.has(key)) return false;
    if (this.journalDirSynced < this.journalCreations) return false;
    const at = this.journaledAt.get(key);
    return at === undefined || at <= this.journal.syncedBytes;
  }

  /**
   * Waits until `key`'s latest change is durable, off the event loop: the journal is fsynced with
   * the next group flush. Called before a new transcript file is created, so the index entry that
   * points to it is on disk first and a crash never leaves a transcript no session points to.
   */
  async commit(key: string): Promise<void> {
    while (!this.isDurable(key)) {
      if (this.closed) throw new Error(`session store ${this.params.storePath} is closed`);
      await this.flush();
    }
  }

  /**
   * {@link commit}, blocking: writes the pending index changes and fsyncs the journal (and its
   * directory when just created) now, unless `key` is durable already.
   */
  commitNow(key: string): void {
    if (this.isDurable(key)) return;
    this.writePending();
    this.stats.blockingSyncs += 1;
    this.journal.syncNow();
    if (this.journalDirSynced < this.journalCreations) {
      const dir = dirname(this.journal.path);
      fsyncDirSync(dir);
      this.dirtyPaths.delete(dir);
      this.journalDirSynced = this.journalCreations;
    }
  }

  /** Rewrites sessions.json now (atomic, .bak kept) and shrinks the journal; joins one in flight. */
  async snapshot(): Promise<void> {
    if (this.params.readOnly) throw new SessionStoreReadOnlyError(this.params.storePath);
    if (this.snapshotting) {
      // One is running: wait for it, and write again only if something changed meanwhile.
      while (this.snapshotting) await Promise.allSettled([this.snapshotting]);
      if (!this.changedSinceSnapshot) return;
    }
    if (this.snapshotTimer !== undefined) this.params.scheduler.clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    this.snapshotting = this.runSnapshot().finally(() => {
      this.snapshotting = undefined;
    });
    await this.snapshotting;
    if (this.changedSinceSnapshot && !this.closed) this.scheduleSnapshot();
  }

  /** Flushes, writes a final snapshot if anything changed, and removes the journal. */
  async close(): Promise<void> {
    if (this.snapshotTimer !== undefined) this.params.scheduler.clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    if (this.closed || this.params.readOnly) {
      this.closed = true;
      return;
    }
    await this.flush();
    this.closed = true;
    if (this.changedSinceSnapshot || !this.journal.empty) await this.snapshot();
    while (this.syncing) await Promise.allSettled([this.syncing]);
    this.journal.close(true);
  }

  /** Bytes currently in the journal. */
  get journalBytes(): number {
    return this.journal.bytes;
  }

  private writePending(): void {
    this.writeScheduled = false;
    if (this.pending.size === 0) return;
    const records = Array.from(this.pending, ([k, e]) => (e ? { k, e } : { k, d: 1 as const }));
    this.journal.append(records);
    const end = this.journal.bytes;
    for (const key of this.pending.keys()) this.journaledAt.set(key, end);
    this.pending.clear();
    if (this.journal.created) {
      this.dirtyPaths.set(dirname(this.journal.path), undefined);
      this.journal.created = false;
      this.journalCreations += 1;
    }
    this.stats.journalWrites += 1;
    this.stats.journalRecords += records.length;
    this.scheduleSnapshot();
  }

  private async runSync(): Promise<void> {
    // Append what is pending first: `seq` counts every change recorded so far, so the sync must
    // cover them all. Without this, a change recorded while an earlier sync was in flight (its
    // append still waiting for setImmediate) counted as synced, and `commit` of that key spun
    // forever on a flush with nothing left to do (a 1,000-message Telegram burst froze the gateway).
    this.writePending();
    const seq = this.writeSeq;
    // The journal's directory is in `dirty` since its creation (until a sync or commitNow covers it).
    const creations = this.journalCreations;
    const dirty = [...this.dirtyPaths];
    this.dirtyPaths.clear();
    const syncs: Array<Promise<void>> = [this.journal.sync()];
    for (const [path, syncer] of dirty) syncs.push(syncer ? syncer.sync() : fsyncPath(path));
    try {
      await Promise.all(syncs);
    } catch (err) {
      for (const [path, syncer] of dirty) this.dirtyPaths.set(path, syncer);
      throw err;
    }
    this.stats.fsyncBatches += 1;
    this.syncedSeq = Math.max(this.syncedSeq, seq);
    this.journalDirSynced = Math.max(this.journalDirSynced, creations);
  }

  private scheduleSnapshot(delayMs?: number): void {
    if (this.params.readOnly || this.closed) return;
    if (this.snapshotTimer !== undefined || this.snapshotting) return;
    const wait =
      delayMs ?? Math.max(this.params.snapshotIntervalMs, 20 * this.stats.lastSnapshotMs);
    this.snapshotTimer = this.params.scheduler.setTimeout(() => {
      this.snapshotTimer = undefined;
      if (this.closed) return;
      this.snapshot().catch((err: unknown) => {
        this.params.logger.warn(
          `snapshot of ${this.params.storePath} failed (the journal still has every change): ${String(err)}`,
        );
      });
    }, wait);
  }

  private async runSnapshot(): Promise<void> {
    const started = performance.now();
    this.writePending();
    const entries = this.params.capture();
    const covered = this.journal.bytes;
    this.changedSinceSnapshot = false;
    try {
      const data = await serializeStore(entries);
      await writeStoreFile(this.params.storePath, data);
      // The journal's fd must not be swapped under an in-flight fsync.
      while (this.syncing) await Promise.allSettled([this.syncing]);
      this.journal.rebase(covered);
      // Everything journaled so far is in the snapshot or in the fsynced tail the rebase wrote.
      this.journaledAt.clear();
      this.stats.lastSnapshotBytes = data.length;
    } catch (err) {
      this.changedSinceSnapshot = true;
      throw err;
    }
    this.stats.snapshotWrites += 1;
    this.stats.lastSnapshotMs = performance.now() - started;
  }
}
