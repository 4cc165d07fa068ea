// Step 1 of the inbound pipeline: a redelivered message (same channel, account, peer and platform
// message id) is processed once. Bounded (oldest evicted) and time-limited.
import { BoundedTtlMap } from "../../lib/bounded-ttl-map.js";
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
  const seen = new BoundedTtlMap<string, true>({
    ttlMs: options.ttlMs ?? DEDUPE_TTL_MS,
    max: options.max ?? DEDUPE_MAX,
    ...(options.now ? { now: options.now } : {}),
  });
  for (const key of options.seed ?? []) seen.set(key, true);
  return {
    firstSeen(message) {
      const key = inboundDedupeKey(message);
      if (seen.has(key)) return false;
      seen.set(key, true);
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
