// Session bookkeeping of an inbound message: the session entry exists, and its delivery context
// (OpenClaw's `deliveryContext` + flat `lastChannel`, `lastTo`, `lastAccountId`, `lastThreadId`,
// `origin` on first contact, `chatType`) points at where the message came from.
import type { MatchedBy } from "../../routing/index.js";
import type { SessionEntry } from "../../sessions/index.js";
import type { ChannelInbound, ChannelPeer } from "../types.js";
import { senderLabel } from "./reply-context.js";

/** The `to` of a peer: a DM partner's bare id, else `<kind>:<id>` (what `send` accepts back). */
export function peerTarget(peer: ChannelPeer): string {
  return peer.kind === "direct" ? peer.id : `${peer.kind}:${peer.id}`;
}

/** Parses a `send` target: `group:<id>`, `channel:<id>`, `direct:<id>` (or `dm:` / `user:`, as
 *  Discord and Slack users write it) or a bare id (a DM). */
export function parsePeerTarget(to: string): ChannelPeer {
  const match = /^(direct|dm|user|group|channel):(.+)$/i.exec(to.trim());
  if (!match) return { kind: "direct", id: to.trim() };
  const kind = match[1]!.toLowerCase();
  const direct = kind === "dm" || kind === "user";
  return { kind: direct ? "direct" : (kind as ChannelPeer["kind"]), id: match[2]! };
}

/** The entry patch for an inbound message (origin only when the entry has none yet; it records
 *  the routing tier that chose the agent, `matchedBy`, when one did). */
export function inboundSessionPatch(
  message: ChannelInbound,
  existing: Readonly<SessionEntry> | undefined,
  matchedBy?: MatchedBy,
): Partial<SessionEntry> {
  const to = peerTarget(message.peer);
  const thread = message.threadId ? { threadId: message.threadId } : {};
  return {
    chatType: message.peer.kind,
    deliveryContext: { channel: message.channel, to, accountId: message.accountId, ...thread },
    lastChannel: message.channel,
    lastTo: to,
    lastAccountId: message.accountId,
    lastThreadId: message.threadId,
    lastInteractionAt: message.timestamp,
    ...(message.peerName && message.peer.kind !== "direct" ? { subject: message.peerName } : {}),
    ...(existing?.origin
      ? {}
      : {
          origin: {
            label: senderLabel(message.sender),
            provider: message.channel,
            surface: message.channel,
            chatType: message.peer.kind,
            from: `${message.channel}:${message.sender.id}`,
            to,
            accountId: message.accountId,
            ...thread,
            ...(matchedBy ? { matchedBy } : {}),
          },
        }),
  };
}
