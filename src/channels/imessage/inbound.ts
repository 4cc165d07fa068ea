// One imsg `message` notification → a normalized `ChannelInbound`. The sender is its handle (a
// number as E.164, else the email lowercased); a group chat (`is_group`, or more than one other
// participant) is peer kind group with id `chat_id:<chat_id>`, any other a DM with the sender. The
// message id is the message GUID (else `rowid:<id>`); a reply names the GUID it answers.
// Attachments are listed with their local path (the agent's host is the Mac). Our own messages
// (`is_from_me`) and empty messages are ignored. Pure; a message missing a field it needs is
// `invalid`, naming it.
import { iMessageHandle } from "../imessage-handle.js";
import type { ChannelInbound, InboundMedia, UpdateConversion } from "../index.js";

type Obj = Record<string, unknown>;

function objectOf(value: unknown): Obj | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** The peer id of a group chat by imsg's chat rowid. */
export function groupPeerId(chatId: number): string {
  return `chat_id:${chatId}`;
}

function kindOf(mime: string | undefined): InboundMedia["kind"] {
  const type = mime ?? "";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("audio/")) return "audio";
  if (type.startsWith("video/")) return "video";
  return "document";
}

/** The attachments imsg lists, the local path as `fileId` (name, type, size); missing files are
 *  skipped. */
export function mediaOf(raw: unknown): InboundMedia[] {
  if (!Array.isArray(raw)) return [];
  const media: InboundMedia[] = [];
  for (const item of raw) {
    const attachment = objectOf(item);
    const path = stringOf(attachment?.original_path) ?? stringOf(attachment?.path);
    if (!attachment || !path || attachment.missing === true) continue;
    const mimeType = stringOf(attachment.mime_type);
    const entry: InboundMedia = { kind: kindOf(mimeType), fileId: path };
    if (mimeType) entry.mimeType = mimeType;
    const fileName = stringOf(attachment.transfer_name) ?? stringOf(attachment.filename);
    if (fileName) entry.fileName = fileName;
    if (typeof attachment.total_bytes === "number") entry.size = attachment.total_bytes;
    media.push(entry);
  }
  return media;
}

/** Converts one notification's `message`; `rowid` of the result is the cursor to resume after. */
export function toIMessageInbound(params: {
  message: unknown;
  accountId: string;
  now: () => number;
}): UpdateConversion & { rowid?: number } {
  const message = objectOf(params.message);
  if (!message) return { kind: "invalid", reason: "message is not a JSON object" };
  const rowid = typeof message.id === "number" ? message.id : undefined;
  const cursor = rowid !== undefined ? { rowid } : {};
  if (message.is_from_me === true) return { kind: "ignored", ...cursor };
  const chatId = message.chat_id;
  if (typeof chatId !== "number") return { kind: "invalid", reason: "chat_id missing", ...cursor };
  const address = stringOf(message.sender);
  if (!address) return { kind: "invalid", reason: "sender missing", ...cursor };
  const text = typeof message.text === "string" ? message.text.replace(/\uFFFC/g, "").trim() : "";
  const media = mediaOf(message.attachments);
  if (text === "" && media.length === 0) return { kind: "ignored", ...cursor };
  const guid = stringOf(message.guid) ?? (rowid !== undefined ? `rowid:${rowid}` : undefined);
  if (!guid) return { kind: "invalid", reason: "guid and id missing" };
  const participants = Array.isArray(message.participants) ? message.participants.length : 0;
  const group = message.is_group === true || participants > 2;
  const sender = iMessageHandle(address);
  const created = Date.parse(stringOf(message.created_at) ?? "");
  const inbound: ChannelInbound = {
    channel: "imessage",
    accountId: params.accountId,
    messageId: guid,
    timestamp: Number.isFinite(created) ? created : params.now(),
    sender: { id: sender },
    peer: group ? { kind: "group", id: groupPeerId(chatId) } : { kind: "direct", id: sender },
    text,
    mentions: [],
    mentionedSelf: false,
    media,
    raw: params.message,
  };
  const chatName = stringOf(message.chat_name);
  if (group && chatName) inbound.peerName = chatName;
  const replyTo = stringOf(message.reply_to_guid);
  if (replyTo) inbound.replyTo = { id: replyTo };
  return { kind: "inbound", inbound, ...cursor };
}
