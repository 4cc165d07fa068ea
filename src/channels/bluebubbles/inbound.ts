// One BlueBubbles `new-message` webhook → a normalized `ChannelInbound`. The sender is its handle
// (a number as E.164, else the email as written); a chat GUID with `;+;` (`iMessage;+;chat…`) is a
// group chat (peer kind group, the GUID as id), any other a DM with the sender. The message id is
// the message GUID; a reply names its thread originator. Attachments come by GUID (downloaded
// later). Our own messages (`isFromMe`), other event types, reactions and empty messages are
// ignored. Pure; a message missing a required field is `invalid`, naming it.
import { iMessageHandle } from "../imessage-handle.js";
import type { ChannelInbound, InboundMedia, UpdateConversion } from "../index.js";

type Obj = Record<string, unknown>;

function objectOf(value: unknown): Obj | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Obj) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** Whether a chat GUID names a group chat (`service;+;id`). */
export function isGroupChatGuid(guid: string): boolean {
  return guid.includes(";+;");
}

function kindOf(mime: string | undefined): InboundMedia["kind"] {
  const type = mime ?? "";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("audio/")) return "audio";
  if (type.startsWith("video/")) return "video";
  return "document";
}

function mediaOf(raw: unknown): InboundMedia[] {
  if (!Array.isArray(raw)) return [];
  const media: InboundMedia[] = [];
  for (const item of raw) {
    const attachment = objectOf(item);
    const guid = stringOf(attachment?.guid);
    if (!attachment || !guid) continue;
    const mimeType = stringOf(attachment.mimeType);
    const entry: InboundMedia = { kind: kindOf(mimeType), fileId: guid };
    if (mimeType) entry.mimeType = mimeType;
    const fileName = stringOf(attachment.transferName);
    if (fileName) entry.fileName = fileName;
    if (typeof attachment.totalBytes === "number") entry.size = attachment.totalBytes;
    media.push(entry);
  }
  return media;
}

/** Converts one webhook body; `chatGuid` of the result says where replies go. */
export function toBlueBubblesInbound(params: {
  body: unknown;
  accountId: string;
  now: () => number;
}): UpdateConversion & { chatGuid?: string } {
  const body = objectOf(params.body);
  if (!body) return { kind: "invalid", reason: "body is not a JSON object" };
  if (body.type !== "new-message") return { kind: "ignored" };
  const data = objectOf(body.data);
  if (!data) return { kind: "invalid", reason: "data missing or not an object" };
  if (data.isFromMe === true) return { kind: "ignored" };
  // A tapback or another associated message is not a message to answer.
  if (stringOf(data.associatedMessageGuid)) return { kind: "ignored" };
  const guid = stringOf(data.guid);
  if (!guid) return { kind: "invalid", reason: "data.guid missing" };
  const address = stringOf(objectOf(data.handle)?.address);
  if (!address) return { kind: "invalid", reason: "data.handle.address missing" };
  const chats = Array.isArray(data.chats) ? data.chats : [];
  const chatGuid = stringOf(objectOf(chats[0])?.guid);
  if (!chatGuid) return { kind: "invalid", reason: "data.chats[0].guid missing" };
  const text = typeof data.text === "string" ? data.text.replace(/\uFFFC/g, "").trim() : "";
  const media = mediaOf(data.attachments);
  if (text === "" && media.length === 0) return { kind: "ignored" };
  const sender = iMessageHandle(address);
  const group = isGroupChatGuid(chatGuid);
  const created = data.dateCreated;
  const inbound: ChannelInbound = {
    channel: "bluebubbles",
    accountId: params.accountId,
    messageId: guid,
    timestamp: typeof created === "number" && created > 0 ? created : params.now(),
    sender: { id: sender },
    peer: group ? { kind: "group", id: chatGuid } : { kind: "direct", id: sender },
    text,
    mentions: [],
    mentionedSelf: false,
    media,
    raw: params.body,
  };
  const chatName = stringOf(objectOf(chats[0])?.displayName);
  if (group && chatName) inbound.peerName = chatName;
  const originator = stringOf(data.threadOriginatorGuid);
  if (originator) inbound.replyTo = { id: originator };
  return { kind: "inbound", inbound, chatGuid };
}
