// Idempotency: a short-lived cache of side-effecting requests (5 min, 1000 entries, as OpenClaw).
// A key is in flight while its work runs, then holds the final payload until it expires. After a
// restart the turn journal seeds it (outcomes keep their original time, so they expire on schedule).

/** Default lifetime of an entry. */
export const DEDUPE_TTL_MS = 300_000;
/** Default entry cap (oldest evicted first). */
export const DEDUPE_MAX_ENTRIES = 1000;

/** What the cache knows about a key. */
export type DedupeEntry<I, F> =
  | { state: "in_flight"; info: I; at: number }
  | { state: "done"; final: F; at: number };

/** The dedupe cache; `now` is injectable for tests. */
export class DedupeCache<I, F> {
  private readonly entries = new Map<string, DedupeEntry<I, F>>();
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly max: number;

  constructor(options: { now?: () => number; ttlMs?: number; max?: number } = {}) {
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? DEDUPE_TTL_MS;
    this.max = options.max ?? DEDUPE_MAX_ENTRIES;
  }

  /** The live entry of a key (expired entries are dropped). */
  get(key: string): DedupeEntry<I, F> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.state === "done" && this.now() - entry.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Marks a key in flight. */
  begin(key: string, info: I): void {
    this.set(key, { state: "in_flight", info, at: this.now() });
  }

  /** Stores the final payload of a key. */
  finish(key: string, final: F): void {
    this.set(key, { state: "done", final, at: this.now() });
  }

  /** Puts back an entry as it was (a restart seeding it: it expires at its original time). */
  restore(key: string, entry: DedupeEntry<I, F>): void {
    this.set(key, entry);
  }

  /** Forgets a key (work that was never accepted, so a retry may try again). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Number of entries held. */
  get size(): number {
    return this.entries.size;
  }

  private set(key: string, entry: DedupeEntry<I, F>): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
