// A store's open transcripts: locating each session's file inside the sessions dir, creating it in
// the never-an-orphan order (the index entry that points to it is durable before the file exists),
// and keeping it open in the bounded cache between turns. A turn whose transcript is cached costs
// one stat (the cache's check that the file is unchanged), not the symlink-following lookups.
import { existsSync, rmSync } from "node:fs";
import type { Logger } from "../lib/logger.js";
import type { StorePersistence } from "./store-persistence.js";
import { type OpenTranscriptParams, openTranscript, type Transcript } from "./transcript.js";
import type { TranscriptCache } from "./transcript-cache.js";
import { createTranscriptAsync } from "./transcript-create.js";
import {
  primaryTranscriptPath,
  recordedPathFor,
  resolveTranscriptPath,
} from "./transcript-location.js";
import type { Clock, IdSource, SessionEntry } from "./types.js";

/** When transcript appends are fsynced: on `flush()` (default), on every append, or never. */
export type TranscriptDurability = "on-flush" | "always" | "never";

/** Inputs of {@link StoreTranscripts}. */
export interface StoreTranscriptsParams {
  sessionsDir: string;
  cache: TranscriptCache;
  persistence: StorePersistence;
  durability: TranscriptDurability;
  clock: Clock;
  logger: Logger;
  ids: IdSource;
  /** The current entry of a key (throws for an unknown one). */
  entryOf: (key: string) => SessionEntry;
  /** Records the transcript path in use as the entry's `sessionFile`. */
  recordPath: (key: string, sessionFile: string | undefined) => void;
}

/** Opens and caches the transcripts of one store. */
export class StoreTranscripts {
  /** Full lookups of a transcript's file (symlinks followed); a cached open needs none. */
  lookups = 0;
  /** Transcript files being created off the loop, so concurrent opens share one creation. */
  private readonly creating = new Map<string, Promise<Transcript | undefined>>();

  constructor(private readonly params: StoreTranscriptsParams) {}

  /** The transcript of `key`, opened (or created) now; a new file waits for a blocking fsync. */
  open(key: string, cwd: string): Transcript {
    return this.cached(key) ?? this.openAt(key, this.locate(key), cwd);
  }

  /** {@link open}, but a file still to be created waits for its index entry's fsync off the loop. */
  async openAsync(key: string, cwd: string): Promise<Transcript> {
    const cached = this.cached(key);
    if (cached) return cached;
    const file = this.locate(key);
    if (existsSync(file)) return this.openAt(key, file, cwd);
    const entry = this.params.entryOf(key);
    await this.params.persistence.commit(key);
    // Changed while waiting (a reset, a patch): located again, and committed blocking if need be.
    if (this.params.entryOf(key) !== entry) return this.open(key, cwd);
    const created = await this.createAt(key, file, cwd);
    // A reset while the file was created moved the session to another file: this one is nobody's.
    if (this.params.entryOf(key).sessionId === entry.sessionId) return created;
    this.params.cache.forget(file);
    rmSync(file, { force: true });
    return this.open(key, cwd);
  }

  /** Creates `file` for `key` off the loop (one creation per file at a time), cached when done; the
   *  file that appeared meanwhile (a blocking open made it) is opened instead. */
  private async createAt(key: string, file: string, cwd: string): Promise<Transcript> {
    let creating = this.creating.get(file);
    if (!creating) {
      creating = createTranscriptAsync(this.openParams(key, file, cwd))
        .then((created) => {
          if (created) this.params.cache.keep(created);
          return created;
        })
        .finally(() => this.creating.delete(file));
      this.creating.set(file, creating);
    }
    return (await creating) ?? this.openAt(key, file, cwd);
  }

  /** Opens `file`, the located transcript of `key` (a new one only once its entry is durable). */
  private openAt(key: string, file: string, cwd: string): Transcript {
    const { cache, persistence } = this.params;
    const reopened = cache.take(file);
    if (reopened) return reopened;
    if (!existsSync(file)) persistence.commitNow(key); // indexed on disk first: never an orphan
    const transcript = openTranscript(this.openParams(key, file, cwd));
    cache.keep(transcript);
    return transcript;
  }

  /** How the store opens (or creates) `file`, the transcript of `key`. */
  private openParams(key: string, file: string, cwd: string): OpenTranscriptParams {
    const { durability } = this.params;
    return {
      file,
      sessionId: this.params.entryOf(key).sessionId,
      cwd,
      clock: this.params.clock,
      logger: this.params.logger,
      ids: this.params.ids,
      keepOpen: true,
      fsync: durability === "always" ? "always" : "never",
      ...(durability === "on-flush" ? { onWrite: this.noteWrite } : {}),
    };
  }

  /**
   * The open transcript of `key` when its entry names a file inside the sessions dir that the cache
   * holds unchanged on disk: that file was located (symlinks followed) when it was opened and is
   * still the same inode, so it is the one {@link locate} would find, without its lookups.
   */
  private cached(key: string): Transcript | undefined {
    const file = primaryTranscriptPath(this.params.sessionsDir, this.params.entryOf(key));
    return file === undefined ? undefined : this.params.cache.take(file);
  }

  /** The transcript file of `key` (throws for an unsafe id); records the path in use in the entry. */
  private locate(key: string): string {
    const { sessionsDir } = this.params;
    const entry = this.params.entryOf(key);
    this.lookups += 1;
    const file = resolveTranscriptPath(sessionsDir, entry);
    if (!file) throw new Error(`session ${key} has an unsafe sessionId: ${entry.sessionId}`);
    const recorded = recordedPathFor(sessionsDir, entry, file);
    if (recorded !== entry.sessionFile) this.params.recordPath(key, recorded);
    return file;
  }

  /** One bound callback for every transcript's writes: their fsync joins the next flush. */
  private readonly noteWrite = (path: string, created: boolean, file: Transcript) =>
    this.params.persistence.noteWrite(path, created, file);
}
