// One Baileys message (`proto.IWebMessageInfo`) → a normalized `ChannelInbound`. DMs are peer
// `direct` with the partner's E.164 (a LID-addressed chat uses the phone number WhatsApp sends
// alongside, `remoteJidAlt` / `senderPn`, else keeps the LID); groups are their `…@g.us` JID with the
// participant as sender. Quotes become `replyTo`, `mentionedJid` the mentions (the account's own JID
// or LID, a reply to it, or its number in the text: `mentionedSelf`). The account's own messages
// count only in the chat with its own number and only with self-chat on (`fromSelf`); status
// broadcasts, broadcast lists, newsletters and protocol traffic are ignored. Pure.
import type {
  ChannelInbound,
  ChannelPeer,
  InboundReplyContext,
  UpdateConversion,
} from "../../index.js";
import { jidToE164, jidToPeerId, whatsAppJidKind } from "../peer-id.js";
import {
  contextInfoOf,
  isProtocolOnly,
  mediaOf,
  placeholderText,
  protoNumber,
  textOf,
  unwrapContent,
} from "./content.js";
import type { WAMessage } from "./socket-seam.js";

/** Who the account is on WhatsApp, from the socket's `user` once connected. */
export interface WebSelfIdentity {
  /** Bare phone JID (`15551234567@s.whatsapp.net`, no device). */
  jid: string;
  /** Bare LID (`123456@lid`), when known. */
  lid?: string;
  e164: string;
  name?: string;
}

/** Inputs for {@link toWebInbound}. */
export interface ToWebInboundParams {
  message: WAMessage;
  accountId: string;
  self: WebSelfIdentity;
  /** Whether the account answers its own messages in the chat with its own number. */
  selfChat: boolean;
  /** A group member's phone JID for their LID (group metadata), when known. */
  phoneJidOfLid?: (lid: string) => string | undefined;
  /** ms epoch used when the message has no timestamp. */
  receivedAt: number;
}

/** A JID without its device and agent suffixes (`1555:3@s.whatsapp.net` → `1555@s.whatsapp.net`). */
export function bareJid(jid: string): string {
  const at = jid.lastIndexOf("@");
  if (at < 0) return jid;
  const user = jid.slice(0, at).split(":")[0]!.split("_")[0]!;
  const server = jid.slice(at + 1) === "c.us" ? "s.whatsapp.net" : jid.slice(at + 1);
  return `${user}@${server}`;
}

type LegacyKey = { senderPn?: unknown; participantPn?: unknown; senderLid?: unknown };

function stringField(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** The person behind a user JID or LID: their E.164 when any phone JID is known, else the LID. */
function personId(jid: string, alternatives: Array<string | undefined>): string {
  if (whatsAppJidKind(jid) === "user") return jidToPeerId(jid);
  for (const alt of alternatives) {
    const number = alt ? jidToE164(alt) : undefined;
    if (number) return number;
  }
  return bareJid(jid);
}

function isSelf(jid: string | undefined, self: WebSelfIdentity): boolean {
  if (!jid) return false;
  const bare = bareJid(jid);
  return bare === self.jid || (self.lid !== undefined && bare === self.lid);
}

function replyContextOf(
  info: ReturnType<typeof contextInfoOf>,
  toPerson: (jid: string) => string,
): InboundReplyContext | undefined {
  const id = stringField(info?.stanzaId);
  if (!info || !id || !info.quotedMessage) return undefined;
  const context: InboundReplyContext = { id };
  const quoted = unwrapContent(info.quotedMessage);
  const body = quoted ? textOf(quoted) || placeholderText(quoted) : undefined;
  if (body) context.body = body;
  const participant = stringField(info.participant);
  if (participant) context.sender = toPerson(participant);
  return context;
}

/** Normalizes one upserted message: `inbound`, `ignored` (not for an agent) or `invalid`. */
export function toWebInbound(params: ToWebInboundParams): UpdateConversion {
  const { message, self } = params;
  const key = message.key as (WAMessage["key"] & LegacyKey) | undefined | null;
  if (!key || typeof key !== "object") return { kind: "invalid", reason: "message.key missing" };
  const remoteJid = stringField(key.remoteJid);
  if (!remoteJid) return { kind: "invalid", reason: "message.key.remoteJid missing" };
  const messageId = stringField(key.id);
  if (!messageId) return { kind: "invalid", reason: "message.key.id missing" };
  const chatKind = whatsAppJidKind(remoteJid);
  if (chatKind !== "user" && chatKind !== "lid" && chatKind !== "group") return { kind: "ignored" };
  const content = unwrapContent(message.message);
  if (!content || isProtocolOnly(content)) return { kind: "ignored" };

  const isGroup = chatKind === "group";
  const remoteAlt = stringField(key.remoteJidAlt) ?? stringField(key.senderPn);
  const fromSelf = key.fromMe === true;
  if (fromSelf) {
    const selfChat = !isGroup && (isSelf(remoteJid, self) || isSelf(remoteAlt, self));
    if (!selfChat || !params.selfChat) return { kind: "ignored" };
  }
  const toPerson = (jid: string) => personId(jid, [params.phoneJidOfLid?.(bareJid(jid))]);

  let peer: ChannelPeer;
  let senderJid: string;
  let senderId: string;
  if (isGroup) {
    peer = { kind: "group", id: remoteJid };
    const participant =
      stringField(key.participant) ??
      stringField((message as { participant?: unknown }).participant);
    if (!fromSelf && !participant)
      return { kind: "invalid", reason: "message.key.participant missing in a group message" };
    senderJid = fromSelf ? self.jid : participant!;
    const participantAlt = stringField(key.participantAlt) ?? stringField(key.participantPn);
    senderId = fromSelf
      ? self.e164
      : personId(senderJid, [participantAlt, params.phoneJidOfLid?.(bareJid(senderJid))]);
  } else {
    const partner = fromSelf ? self.e164 : personId(remoteJid, [remoteAlt]);
    peer = { kind: "direct", id: partner };
    senderJid = fromSelf ? self.jid : remoteJid;
    senderId = partner;
  }

  const info = contextInfoOf(content);
  const mentionedJids = (info?.mentionedJid ?? []).filter(
    (jid): jid is string => typeof jid === "string" && jid.length > 0,
  );
  const replyTo = replyContextOf(info, toPerson);
  const text = textOf(content) || placeholderText(content) || "";
  const media = mediaOf(content, messageId);
  if (!text && media.length === 0) return { kind: "ignored" };
  const mentionedSelf =
    mentionedJids.some((jid) => isSelf(jid, self)) ||
    isSelf(stringField(info?.participant), self) ||
    text.replace(/[\s().-]/g, "").includes(self.e164.slice(1));

  const seconds = protoNumber(message.messageTimestamp);
  const inbound: ChannelInbound = {
    channel: "whatsapp",
    accountId: params.accountId,
    messageId,
    timestamp: seconds === undefined ? params.receivedAt : seconds * 1000,
    sender: { id: senderId },
    peer,
    text,
    mentions: mentionedJids.map(toPerson),
    mentionedSelf: !fromSelf && mentionedSelf,
    media,
    raw: { key: message.key, pushName: message.pushName, senderJid },
  };
  const name = fromSelf ? self.name : stringField(message.pushName);
  if (name) inbound.sender.name = name;
  if (fromSelf) inbound.fromSelf = true;
  if (replyTo) inbound.replyTo = replyTo;
  return { kind: "inbound", inbound };
}
