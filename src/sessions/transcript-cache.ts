// The store's open transcripts, most recently used last: parsed entries plus a kept append fd, so a
// turn neither re-reads its JSONL nor opens the file per line. Bounded by count and by the bytes of
// the files they hold (least recently used is released first; the most recent one always stays), and
// validated on every use against the file's inode, size and mtime, so an edit made by anything else
// (another tool, a restore) is re-read instead of overwritten. A released transcript loses nothing:
// every line is on disk, and the next open parses the file again.
import type { Transcript } from "./transcript.js";

/** Open transcripts kept when nothing else is configured. */
export const DEFAULT_OPEN_TRANSCRIPTS = 128;

/**
 * JSONL bytes the open transcripts may hold together (parsed, they take about 1.3 times that in
 * heap): 16 MiB keeps a few hundred ordinary sessions warm while long histories give way.
 */
export const DEFAULT_OPEN_TRANSCRIPT_BYTES = 16 * 1024 * 1024;

/** Limits of a {@link TranscriptCache}. */
export interface TranscriptCacheLimits {
  /** Most transcripts kept open. */
  count?: number;
  /** Most bytes (sum of the files' sizes) kept open. */
  bytes?: number;
}

/** A bounded LRU of open transcripts keyed by file path. */
export class TranscriptCache {
  private readonly open = new Map<string, Transcript>();
  private readonly maxCount: number;
  private readonly maxBytes: number;

  constructor(limits: TranscriptCacheLimits = {}) {
    this.maxCount = Math.max(1, limits.count ?? DEFAULT_OPEN_TRANSCRIPTS);
    this.maxBytes = Math.max(0, limits.bytes ?? DEFAULT_OPEN_TRANSCRIPT_BYTES);
  }

  /** The cached transcript of `file` if the file is unchanged on disk; a stale one is released. */
  take(file: string): Transcript | undefined {
    const cached = this.open.get(file);
    if (!cached) return undefined;
    this.open.delete(file);
    if (!cached.matchesDisk()) {
      cached.release();
      return undefined;
    }
    this.open.set(file, cached);
    this.trim();
    return cached;
  }

  /** Keeps `transcript` (replacing and releasing any other object for the same file). */
  keep(transcript: Transcript): void {
    const previous = this.open.get(transcript.file);
    if (previous && previous !== transcript) previous.release();
    this.open.delete(transcript.file);
    this.open.set(transcript.file, transcript);
    this.trim();
  }

  /** Drops and releases the transcript of `file` (archived, deleted or pruned). */
  forget(file: string): void {
    const cached = this.open.get(file);
    if (!cached) return;
    this.open.delete(file);
    cached.release();
  }

  /** Releases every kept fd. */
  clear(): void {
    for (const transcript of this.open.values()) transcript.release();
    this.open.clear();
  }

  /** Number of transcripts kept open. */
  get size(): number {
    return this.open.size;
  }

  /** Bytes of the files kept open, as of their last write or check (appends since count). */
  get bytes(): number {
    let total = 0;
    for (const transcript of this.open.values()) total += transcript.byteSize;
    return total;
  }

  /** Releases the least recently used until both limits hold (never the most recent one). */
  private trim(): void {
    let bytes = this.bytes;
    while (this.open.size > 1 && (this.open.size > this.maxCount || bytes > this.maxBytes)) {
      const oldest = this.open.values().next().value as Transcript;
      bytes -= oldest.byteSize;
      this.forget(oldest.file);
    }
  }
}
