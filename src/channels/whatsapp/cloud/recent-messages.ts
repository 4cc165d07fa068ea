// What one Cloud API account remembers of recent messages, in memory and bounded: the text of
// messages it received or sent by id (a reply's `context.id` then carries the quoted body), and
// the newest inbound message id per peer (the typing indicator is shown by marking that message
// read). Lost on restart: a reply to an older message just has no quoted text.

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

function bounded<T>(map: Map<string, T>, key: string, value: T, limit: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > limit) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}

/** Creates an empty memory. */
export function createRecentMessages(limit = RECENT_MESSAGES_KEPT): RecentMessages {
  const bodies = new Map<string, RecentMessage>();
  const lastByPeer = new Map<string, string>();
  return {
    remember: (messageId, message) => bounded(bodies, messageId, message, limit),
    recall: (messageId) => bodies.get(messageId),
    noteInbound: (peerId, messageId) => bounded(lastByPeer, peerId, messageId, limit),
    lastInbound: (peerId) => lastByPeer.get(peerId),
  };
}
