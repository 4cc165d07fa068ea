// One signal-cli `receive` event → a normalized `ChannelInbound`. The sender is its number (E.164)
// or, when the number is hidden, its UUID; a message with `groupInfo.groupId` is a group message
// (peer kind group, the base64 id as is), any other a DM with the sender. The message id is
// `<timestamp>:<sender>` (the timestamp is Signal's message id, the sender makes it unique in a
// group, and a reply can name both as quoteTimestamp / quoteAuthor). Mentions (U+FFFC placeholders
// in the text) become `@name` and native mentions; one of this account, or a quote of its own
// message, is a mention of self. Attachments come by id (downloaded later). Stories, receipts,
// typing, sync and reaction-only messages are ignored. Pure; a malformed event is `invalid`.
import type { ChannelInbound, InboundMedia, UpdateConversion } from "../index.js";
import { signalE164 } from "./settings.js";

/** Inputs of {@link toSignalInbound}. */
export interface ToSignalInboundParams {
  /** The event's data (`{ envelope, account }`). */
  event: unknown;
  accountId: string;
  /** This account's number (E.164), when known. */
  self?: string;
}

type Obj = Record<string, unknown>;

function objectOf(value: unknown): Obj | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A Signal address (number or UUID) as Pincer names it: `+<digits>`, else the UUID. */
export function signalAddress(number: unknown, uuid: unknown): string | undefined {
  const n = stringOf(number);
  const e164 = n === undefined ? undefined : signalE164(n);
  return e164 ?? stringOf(uuid) ?? n;
}

function mediaKind(contentType: string | undefined, voiceNote: boolean): InboundMedia["kind"] {
  const type = contentType ?? "";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("audio/")) return voiceNote ? "voice" : "audio";
  if (type.startsWith("video/")) return "video";
  return "document";
}

function mediaOf(attachments: unknown): InboundMedia[] {
  if (!Array.isArray(attachments)) return [];
  const media: InboundMedia[] = [];
  for (const raw of attachments) {
    const attachment = objectOf(raw);
    const id = stringOf(attachment?.id);
    if (!attachment || !id) continue;
    const mimeType = stringOf(attachment.contentType);
    const item: InboundMedia = {
      kind: mediaKind(mimeType, attachment.voiceNote === true),
      fileId: id,
    };
    if (mimeType) item.mimeType = mimeType;
    const fileName = stringOf(attachment.filename);
    if (fileName) item.fileName = fileName;
    if (typeof attachment.size === "number") item.size = attachment.size;
    media.push(item);
  }
  return media;
}

interface Mention {
  start: number;
  length: number;
  address: string;
  label: string;
}

function mentionsOf(raw: unknown): Mention[] {
  if (!Array.isArray(raw)) return [];
  const mentions: Mention[] = [];
  for (const item of raw) {
    const mention = objectOf(item);
    const address = signalAddress(mention?.number, mention?.uuid);
    const { start, length } = mention ?? {};
    if (!address || typeof start !== "number" || typeof length !== "number") continue;
    mentions.push({ start, length, address, label: stringOf(mention?.name) ?? address });
  }
  return mentions.sort((a, b) => b.start - a.start);
}

/** The text with each mention's placeholder replaced by `@<name>` (offsets are UTF-16 units). */
function withMentions(text: string, mentions: readonly Mention[]): string {
  let out = text;
  for (const mention of mentions) {
    if (mention.start < 0 || mention.start + mention.length > out.length) continue;
    out = `${out.slice(0, mention.start)}@${mention.label}${out.slice(mention.start + mention.length)}`;
  }
  return out;
}

/** Converts one `receive` event. */
export function toSignalInbound(params: ToSignalInboundParams): UpdateConversion {
  const event = objectOf(params.event);
  const envelope = objectOf(event?.envelope);
  if (!envelope) return { kind: "invalid", reason: "envelope missing or not an object" };
  const data = objectOf(envelope.dataMessage);
  // Stories, receipts, typing and sync messages (our own sends from another device) start nothing.
  if (!data) return { kind: "ignored" };
  if (data.storyContext !== undefined && data.message === undefined) return { kind: "ignored" };
  const sender = signalAddress(envelope.sourceNumber ?? envelope.source, envelope.sourceUuid);
  if (!sender) return { kind: "invalid", reason: "envelope.source: no sender number or uuid" };
  const timestamp = data.timestamp ?? envelope.timestamp;
  if (typeof timestamp !== "number" || !Number.isSafeInteger(timestamp) || timestamp <= 0)
    return { kind: "invalid", reason: "envelope.timestamp: expected a positive integer" };
  const mentions = mentionsOf(data.mentions);
  const text = withMentions(typeof data.message === "string" ? data.message : "", mentions);
  const media = mediaOf(data.attachments);
  if (text.trim() === "" && media.length === 0) return { kind: "ignored" };
  const groupId = stringOf(objectOf(data.groupInfo)?.groupId);
  const self = params.self;
  const quote = objectOf(data.quote);
  const quoteAuthor = signalAddress(quote?.authorNumber ?? quote?.author, quote?.authorUuid);
  const quoteId = quote?.id;
  const inbound: ChannelInbound = {
    channel: "signal",
    accountId: params.accountId,
    messageId: `${timestamp}:${sender}`,
    timestamp,
    sender: {
      id: sender,
      ...(stringOf(envelope.sourceName) ? { name: stringOf(envelope.sourceName) } : {}),
    },
    peer: groupId ? { kind: "group", id: groupId } : { kind: "direct", id: sender },
    text,
    mentions: mentions.map((m) => m.address),
    mentionedSelf:
      self !== undefined &&
      (mentions.some((m) => m.address === self) || (quote !== undefined && quoteAuthor === self)),
    fromSelf: self !== undefined && sender === self,
    media,
    raw: params.event,
  };
  const groupName = stringOf(objectOf(data.groupInfo)?.groupName);
  if (groupName) inbound.peerName = groupName;
  if (quote && typeof quoteId === "number") {
    inbound.replyTo = {
      id: quoteAuthor ? `${quoteId}:${quoteAuthor}` : String(quoteId),
      ...(typeof quote.text === "string" ? { body: quote.text } : {}),
      ...(quoteAuthor ? { sender: quoteAuthor } : {}),
    };
  }
  return { kind: "inbound", inbound };
}

/** The (timestamp, author) a message id names: `<timestamp>:<author>` or a bare timestamp. */
export function parseSignalMessageId(
  id: string,
): { timestamp: number; author?: string } | undefined {
  const match = /^(\d+)(?::(.+))?$/.exec(id.trim());
  if (!match) return undefined;
  const timestamp = Number(match[1]);
  if (!Number.isSafeInteger(timestamp)) return undefined;
  return match[2] ? { timestamp, author: match[2] } : { timestamp };
}
