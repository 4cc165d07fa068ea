// The transcripts of one PostgreSQL store: a bounded cache of loaded ones (every row is written
// through, so dropping one loses nothing), the session ids known to have no rows yet (created by this
// process: opened synchronously with a new header), and loading from PostgreSQL on a miss.
import type { TranscriptReadResult } from "../transcript.js";
import { createTranscriptHeader, type TranscriptHeader } from "../transcript-format.js";
import type { Clock, IdSource } from "../types.js";
import type { PgSessionBackend } from "./backend.js";
import { PgTranscript, storedEntries } from "./pg-transcript.js";

/** Raised by a synchronous read of a transcript that is in PostgreSQL but not loaded. */
export class TranscriptNotLoadedError extends Error {
  constructor(readonly sessionKey: string) {
    super(
      `the transcript of ${sessionKey} is in PostgreSQL and not loaded: use openTranscriptAsync, readTranscriptAsync or reload first`,
    );
    this.name = "TranscriptNotLoadedError";
  }
}

/** Inputs of {@link PgStoreTranscripts}. */
export interface PgStoreTranscriptsParams {
  backend: PgSessionBackend;
  agentId: string;
  clock: Clock;
  ids: IdSource;
  /** Loaded transcripts kept (default 256). */
  max?: number;
}

/** Loaded transcripts of one store, keyed by session id. */
export class PgStoreTranscripts {
  private readonly cache = new Map<string, PgTranscript>();
  private readonly fresh = new Set<string>();
  /** Transcripts read from PostgreSQL (stats). */
  loads = 0;

  constructor(private readonly params: PgStoreTranscriptsParams) {}

  /** Number of loaded transcripts. */
  get cached(): number {
    return this.cache.size;
  }

  /** Notes a session id created here: it has no rows, so it opens without a read. */
  noteFresh(sessionId: string): void {
    this.fresh.add(sessionId);
  }

  /** Drops a session id's loaded transcript (archived, or reloaded from PostgreSQL). */
  forget(sessionId: string): void {
    this.cache.delete(sessionId);
    this.fresh.delete(sessionId);
  }

  /** The locator shown as a transcript's `file`. */
  locator(sessionId: string): string {
    return `${this.params.backend.where}#${sessionId}`;
  }

  /** A loaded transcript, a new one for a fresh id, or undefined when it must be loaded first. */
  openSync(params: {
    sessionKey: string;
    sessionId: string;
    cwd: string;
  }): PgTranscript | undefined {
    const hit = this.take(params.sessionId);
    if (hit) return hit;
    if (!this.fresh.has(params.sessionId)) return undefined;
    return this.create(params);
  }

  /** {@link openSync}, loading from PostgreSQL on a miss (a session without rows gets a header). */
  async open(params: {
    sessionKey: string;
    sessionId: string;
    cwd: string;
  }): Promise<PgTranscript> {
    const ready = this.openSync(params);
    if (ready) return ready;
    const loaded = await this.load(params.sessionId);
    return loaded ?? this.take(params.sessionId) ?? this.create(params);
  }

  /** What a synchronous read can tell (undefined: load it first). */
  readSync(sessionId: string): TranscriptReadResult | undefined {
    const hit = this.take(sessionId);
    if (hit) return hit.read();
    return this.fresh.has(sessionId) ? this.missing(sessionId) : undefined;
  }

  /** A read, loading from PostgreSQL when needed. */
  async read(sessionId: string): Promise<TranscriptReadResult> {
    const known = this.readSync(sessionId);
    if (known) return known;
    const loaded = await this.load(sessionId);
    return loaded ? loaded.read() : this.missing(sessionId);
  }

  /** Reads one transcript from PostgreSQL into the cache (after the queued writes land). */
  async load(sessionId: string): Promise<PgTranscript | undefined> {
    const { backend } = this.params;
    await backend.writer.flush();
    this.loads += 1;
    const stored = await backend.loadTranscript(sessionId);
    if (!stored) return undefined;
    const transcript = new PgTranscript({
      file: this.locator(sessionId),
      sessionId,
      writer: backend.writer,
      clock: this.params.clock,
      ids: this.params.ids,
      header: JSON.parse(stored.header) as TranscriptHeader,
      entries: storedEntries(stored),
    });
    this.keep(sessionId, transcript);
    this.fresh.delete(sessionId);
    return transcript;
  }

  /** Drops everything loaded. */
  clear(): void {
    this.cache.clear();
    this.fresh.clear();
  }

  private create(params: { sessionKey: string; sessionId: string; cwd: string }): PgTranscript {
    const { backend, clock } = this.params;
    const now = clock.now();
    const header = createTranscriptHeader({ sessionId: params.sessionId, cwd: params.cwd, now });
    backend.writer.putHeader({
      sessionId: params.sessionId,
      agentId: this.params.agentId,
      sessionKey: params.sessionKey,
      json: JSON.stringify(header),
      createdAt: now,
    });
    const transcript = new PgTranscript({
      file: this.locator(params.sessionId),
      sessionId: params.sessionId,
      writer: backend.writer,
      clock,
      ids: this.params.ids,
      header,
      entries: [],
    });
    this.fresh.delete(params.sessionId);
    this.keep(params.sessionId, transcript);
    return transcript;
  }

  private take(sessionId: string): PgTranscript | undefined {
    const hit = this.cache.get(sessionId);
    if (hit) {
      this.cache.delete(sessionId);
      this.cache.set(sessionId, hit);
    }
    return hit;
  }

  private keep(sessionId: string, transcript: PgTranscript): void {
    this.cache.delete(sessionId);
    this.cache.set(sessionId, transcript);
    const max = this.params.max ?? 256;
    while (this.cache.size > max) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }

  private missing(sessionId: string): TranscriptReadResult {
    const file = this.locator(sessionId);
    return { file, exists: false, entries: [], issues: [], validBytes: 0, needsNewline: false };
  }
}
