// What one Cloud API account remembers of recent messages, in memory and bounded: the text of
// messages it received or sent by id (a reply's `context.id` then carries the quoted body), and
// the newest inbound message id per peer (the typing indicator is shown by marking that message
// read). Lost on restart: a reply to an older message just has no quoted text.
import { BoundedTtlMap } from "../../../lib/bounded-ttl-map.js";

/** Messages remembered per account. */
export const RECENT_MESSAGES_KEPT = 2_000;

/** A remembered message. */
export interface RecentMessage {
  body?: string;
  sender?: string;
}

/** The account's memory of recent messages. */
export interface RecentMessages {
  remember(messageId: string, message: RecentMessage): void;
  recall(messageId: string): RecentMessage | undefined;
  /** Notes the newest inbound message of a peer. */
  noteInbound(peerId: string, messageId: string): void;
  lastInbound(peerId: string): string | undefined;
}

/** Creates an empty memory. */
export function createRecentMessages(limit = RECENT_MESSAGES_KEPT): RecentMessages {
  const never = { ttlMs: Number.POSITIVE_INFINITY, max: limit };
  const bodies = new BoundedTtlMap<string, RecentMessage>(never);
  const lastByPeer = new BoundedTtlMap<string, string>(never);
  return {
    remember: (messageId, message) => bodies.set(messageId, message),
    recall: (messageId) => bodies.get(messageId),
    noteInbound: (peerId, messageId) => lastByPeer.set(peerId, messageId),
    lastInbound: (peerId) => lastByPeer.get(peerId),
  };
}
