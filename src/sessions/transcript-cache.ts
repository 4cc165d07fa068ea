// The store's open transcripts, most recently used last: parsed entries plus a kept append fd, so a
// turn neither re-reads its JSONL nor opens the file per line. Bounded (least recently used is
// released first) and validated on every use against the file's inode, size and mtime, so an edit
// made by anything else (another tool, a restore) is re-read instead of overwritten.
import type { Transcript } from "./transcript.js";

/** Open transcripts kept when nothing else is configured. */
export const DEFAULT_OPEN_TRANSCRIPTS = 128;

/** A bounded LRU of open transcripts keyed by file path. */
export class TranscriptCache {
  private readonly open = new Map<string, Transcript>();

  constructor(private readonly capacity: number = DEFAULT_OPEN_TRANSCRIPTS) {}

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
    return cached;
  }

  /** Keeps `transcript` (replacing and releasing any other object for the same file). */
  keep(transcript: Transcript): void {
    const previous = this.open.get(transcript.file);
    if (previous && previous !== transcript) previous.release();
    this.open.delete(transcript.file);
    this.open.set(transcript.file, transcript);
    while (this.open.size > Math.max(1, this.capacity)) {
      const oldest = this.open.keys().next().value as string;
      this.forget(oldest);
    }
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
}
