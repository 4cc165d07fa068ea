// A map that forgets: entries live `ttlMs` after they were set and at most `max` are kept (the oldest
// set goes first). Used wherever a key must be remembered for a while but never without bound
// (request idempotency, inbound redelivery). The clock is injected.

/** Options of a {@link BoundedTtlMap}. */
export interface BoundedTtlMapOptions<V> {
  /** How long an entry lives after it was set (it is gone once `now - at >= ttlMs`). */
  ttlMs: number;
  /** Most entries kept; setting one more evicts the oldest (at least 1). */
  max: number;
  now?: () => number;
  /** False for a value that must not expire while it stays (e.g. work still in flight). */
  expires?: (value: V) => boolean;
}

interface Slot<V> {
  value: V;
  at: number;
}

/** A bounded, time-limited map in insertion order (a set moves the key to the newest end). */
export class BoundedTtlMap<K, V> {
  private readonly slots = new Map<K, Slot<V>>();
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;
  private readonly expires: (value: V) => boolean;

  constructor(options: BoundedTtlMapOptions<V>) {
    this.ttlMs = options.ttlMs;
    this.max = Math.max(1, options.max);
    this.now = options.now ?? Date.now;
    this.expires = options.expires ?? (() => true);
  }

  /** The live value of a key; an expired one is dropped and reads as absent. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    if (this.isExpired(slot, this.now())) {
      this.slots.delete(key);
      return undefined;
    }
    return slot.value;
  }

  /** Whether a key holds a live value. */
  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  /** Sets a key as the newest entry; `at` (default now) is when its lifetime started. */
  set(key: K, value: V, at: number = this.now()): void {
    this.slots.delete(key);
    this.slots.set(key, { value, at });
    this.prune();
  }

  /** Forgets a key. */
  delete(key: K): void {
    this.slots.delete(key);
  }

  /** Number of entries held (expired ones not yet pruned included). */
  get size(): number {
    return this.slots.size;
  }

  /** Drops entries from the oldest end while they are expired or the map is over `max`. */
  prune(): void {
    const at = this.now();
    for (const [key, slot] of this.slots) {
      if (this.slots.size <= this.max && !this.isExpired(slot, at)) break;
      this.slots.delete(key);
    }
  }

  private isExpired(slot: Slot<V>, at: number): boolean {
    return at - slot.at >= this.ttlMs && this.expires(slot.value);
  }
}
