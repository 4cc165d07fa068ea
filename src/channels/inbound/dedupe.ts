// Step 1 of the inbound pipeline: a redelivered message (same channel, account, peer and platform
// message id) is processed once. Bounded (oldest evicted) and time-limited.
import type { ChannelInbound } from "../types.js";

/** Default time a message id is remembered. */
export const DEDUPE_TTL_MS = 20 * 60 * 1000;
/** Default number of ids remembered. */
export const DEDUPE_MAX = 5000;

/** Remembers message ids; `firstSeen` answers whether a message is new (and records it). */
export interface InboundDedupe {
  firstSeen(message: ChannelInbound): boolean;
  /** Forgets a message (it was not durably accepted and will be delivered again). */
  forget(message: ChannelInbound): void;
  readonly size: number;
}

/** The dedupe key of a message. */
export function inboundDedupeKey(message: ChannelInbound): string {
  const { channel, accountId, peer, messageId } = message;
  return `${channel}\u0000${accountId}\u0000${peer.kind}:${peer.id}\u0000${messageId}`;
}

/** Creates a dedupe memory; `seed` keys (from the inbound journal, oldest first) count as seen now. */
export function createInboundDedupe(
  options: { ttlMs?: number; max?: number; now?: () => number; seed?: Iterable<string> } = {},
): InboundDedupe {
  const ttlMs = options.ttlMs ?? DEDUPE_TTL_MS;
  const max = Math.max(1, options.max ?? DEDUPE_MAX);
  const now = options.now ?? Date.now;
  const seen = new Map<string, number>();
  const seededAt = now();
  for (const key of options.seed ?? []) {
    seen.delete(key);
    seen.set(key, seededAt);
  }
  const prune = (at: number) => {
    for (const [key, time] of seen) {
      if (at - time < ttlMs && seen.size <= max) break;
      seen.delete(key);
    }
  };
  return {
    firstSeen(message) {
      const at = now();
      prune(at);
      const key = inboundDedupeKey(message);
      const time = seen.get(key);
      if (time !== undefined && at - time < ttlMs) return false;
      seen.delete(key);
      seen.set(key, at);
      if (seen.size > max) prune(at);
      return true;
    },
    forget(message) {
      seen.delete(inboundDedupeKey(message));
    },
    get size() {
      return seen.size;
    },
  };
}
