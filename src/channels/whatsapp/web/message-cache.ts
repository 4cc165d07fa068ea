// The recent messages of one account, bounded: inbound messages by id (a reply quotes the original
// message, which Baileys needs whole; media is downloaded through it) and the ids of messages this
// account sent (their echo in self-chat is not a new message). Oldest entries go first.
import { BoundedTtlMap } from "../../../lib/bounded-ttl-map.js";

/** Messages kept per account by default. */
export const DEFAULT_MESSAGE_CACHE_SIZE = 500;

/** A bounded map by message id; re-setting an id makes it the newest. */
export interface RecentMessages<T> {
  remember(id: string, value: T): void;
  get(id: string): T | undefined;
  has(id: string): boolean;
  readonly size: number;
}

/** Creates a cache holding at most `limit` entries (no expiry: only the bound evicts). */
export function createRecentMessages<T>(limit = DEFAULT_MESSAGE_CACHE_SIZE): RecentMessages<T> {
  const entries = new BoundedTtlMap<string, T>({ ttlMs: Number.POSITIVE_INFINITY, max: limit });
  return {
    remember: (id, value) => entries.set(id, value),
    get: (id) => entries.get(id),
    has: (id) => entries.has(id),
    get size() {
      return entries.size;
    },
  };
}
