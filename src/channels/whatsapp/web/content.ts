// What a WhatsApp message's content says, read from Baileys' `proto.IMessage`: the wrappers
// (ephemeral, view-once, document-with-caption, …) unwrapped, the text (conversation, extended text,
// a caption), the context info (quote, mentions), the media attachments, and whether it is only
// protocol traffic (receipts of keys, reactions, poll votes, edits, revokes) that never reaches an
// agent. Pure.
import type { InboundMedia } from "../../index.js";
import type { WAMessageContent } from "./socket-seam.js";

type ContextInfo = NonNullable<NonNullable<WAMessageContent["extendedTextMessage"]>["contextInfo"]>;

const WRAPPERS = [
  "ephemeralMessage",
  "viewOnceMessage",
  "viewOnceMessageV2",
  "viewOnceMessageV2Extension",
  "documentWithCaptionMessage",
  "groupMentionedMessage",
  "botInvokeMessage",
  "lottieStickerMessage",
] as const;

/** Content keys that are traffic, not a message for an agent. */
const PROTOCOL_KEYS = [
  "protocolMessage",
  "reactionMessage",
  "encReactionMessage",
  "pollUpdateMessage",
  "editedMessage",
  "keepInChatMessage",
  "pinInChatMessage",
  "senderKeyDistributionMessage",
  "fastRatchetKeySenderKeyDistributionMessage",
  "messageContextInfo",
  "placeholderMessage",
] as const;

const MEDIA_KEYS: Array<[keyof WAMessageContent, InboundMedia["kind"]]> = [
  ["imageMessage", "image"],
  ["videoMessage", "video"],
  ["ptvMessage", "video"],
  ["audioMessage", "audio"],
  ["documentMessage", "document"],
  ["stickerMessage", "sticker"],
];

/** The message inside its wrappers (ephemeral, view-once, …), up to a few levels. */
export function unwrapContent(
  content: WAMessageContent | null | undefined,
): WAMessageContent | undefined {
  let current = content ?? undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    const wrapper = WRAPPERS.find((key) => current?.[key]?.message);
    if (!wrapper) return current;
    current = current[wrapper]?.message ?? undefined;
  }
  return current;
}

/** True when the content carries nothing but protocol traffic. */
export function isProtocolOnly(content: WAMessageContent): boolean {
  const keys = Object.entries(content)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key]) => key);
  const protocol = new Set<string>(PROTOCOL_KEYS);
  return keys.length === 0 || keys.every((key) => protocol.has(key));
}

/** The text of a message: the conversation, the extended text, else a media caption. */
export function textOf(content: WAMessageContent): string {
  return (
    content.conversation ??
    content.extendedTextMessage?.text ??
    content.imageMessage?.caption ??
    content.videoMessage?.caption ??
    content.documentMessage?.caption ??
    ""
  );
}

/** The context info (quote, mentions) of whichever part carries one. */
export function contextInfoOf(content: WAMessageContent): ContextInfo | undefined {
  for (const value of Object.values(content)) {
    if (value && typeof value === "object" && "contextInfo" in value) {
      const info = (value as { contextInfo?: ContextInfo | null }).contextInfo;
      if (info) return info;
    }
  }
  return undefined;
}

/** A protobuf integer (number or Long) as a number. */
export function protoNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (value && typeof value === "object" && "toNumber" in value)
    return (value as { toNumber(): number }).toNumber();
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return undefined;
}

/** The attachments of a message; `fileId` is the message id (the adapter downloads through the
 *  message it keeps). Voice notes (`ptt`) are `voice`. */
export function mediaOf(content: WAMessageContent, messageId: string): InboundMedia[] {
  const media: InboundMedia[] = [];
  for (const [key, kind] of MEDIA_KEYS) {
    const part = content[key] as
      | {
          mimetype?: string | null;
          fileLength?: unknown;
          fileName?: string | null;
          ptt?: boolean | null;
        }
      | null
      | undefined;
    if (!part) continue;
    const entry: InboundMedia = {
      kind: key === "audioMessage" && part.ptt ? "voice" : kind,
      fileId: messageId,
    };
    if (part.mimetype) entry.mimeType = part.mimetype;
    if (part.fileName) entry.fileName = part.fileName;
    const size = protoNumber(part.fileLength);
    if (size !== undefined) entry.size = size;
    media.push(entry);
  }
  return media;
}

/** A one-line stand-in for content that has no text or media of its own (location, contact). */
export function placeholderText(content: WAMessageContent): string | undefined {
  const location = content.locationMessage ?? content.liveLocationMessage;
  if (location) {
    const { degreesLatitude: lat, degreesLongitude: lng } = location;
    return `[location ${lat ?? "?"}, ${lng ?? "?"}]`;
  }
  const contact = content.contactMessage?.displayName;
  if (contact) return `[contact: ${contact}]`;
  return undefined;
}
