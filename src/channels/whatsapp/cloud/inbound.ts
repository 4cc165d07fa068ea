// One Cloud API webhook message → a normalized `ChannelInbound`: the sender's `wa_id` as E.164
// (the same peer id as WhatsApp Web, so bindings and allowlists match on either transport), the
// profile name, text or caption, interactive and template button replies as their text, replies
// (`context.id`, with the quoted body when this account saw that message), media by id. Every
// Cloud conversation is a DM (the API has no groups). Reactions, locations, contacts, orders and
// system messages are ignored. Pure; a message missing a required field is `invalid`, naming it.
import type { ChannelInbound, InboundMedia, UpdateConversion } from "../../index.js";
import { normalizeE164 } from "../peer-id.js";
import { type CloudContact, objectOf, stringOf } from "./webhook-payload.js";

/** The media types of a message and the kind each becomes. */
const MEDIA_KINDS: Record<string, InboundMedia["kind"]> = {
  image: "image",
  document: "document",
  audio: "audio",
  video: "video",
  sticker: "sticker",
};

/** Inputs of {@link toCloudInbound}. */
export interface ToCloudInboundParams {
  message: unknown;
  contacts: readonly CloudContact[];
  accountId: string;
  /** `entry[i].changes[j].messages[k]`, for reasons. */
  where: string;
  /** The body of a message this account saw or sent, by id (for the quoted text of a reply). */
  recall: (messageId: string) => { body?: string; sender?: string } | undefined;
  /** Stamp of a message without a usable timestamp (ms epoch). */
  now: () => number;
}

function textOf(type: string, message: Record<string, unknown>): string | undefined {
  if (type === "text") return stringOf(objectOf(message.text)?.body);
  if (type === "interactive") {
    const interactive = objectOf(message.interactive);
    const reply = objectOf(interactive?.button_reply) ?? objectOf(interactive?.list_reply);
    return stringOf(reply?.title) ?? stringOf(reply?.id);
  }
  if (type === "button") {
    const button = objectOf(message.button);
    return stringOf(button?.text) ?? stringOf(button?.payload);
  }
  return undefined;
}

function mediaOf(type: string, message: Record<string, unknown>): InboundMedia | undefined {
  const kind = MEDIA_KINDS[type];
  const body = objectOf(message[type]);
  const fileId = stringOf(body?.id);
  if (!kind || !body || !fileId) return undefined;
  const media: InboundMedia = {
    kind: kind === "audio" && body.voice === true ? "voice" : kind,
    fileId,
  };
  const mimeType = stringOf(body.mime_type);
  if (mimeType) media.mimeType = mimeType;
  const fileName = stringOf(body.filename);
  if (fileName) media.fileName = fileName;
  return media;
}

/** Converts one message of a webhook. */
export function toCloudInbound(params: ToCloudInboundParams): UpdateConversion {
  const { where } = params;
  const message = objectOf(params.message);
  if (!message) return { kind: "invalid", reason: `${where} is not an object` };
  const id = stringOf(message.id);
  if (!id) return { kind: "invalid", reason: `${where}.id is missing` };
  const from = stringOf(message.from);
  const number = from ? normalizeE164(from) : undefined;
  if (!number)
    return {
      kind: "invalid",
      reason: `${where}.from ${JSON.stringify(message.from)} is not a phone number`,
    };
  const type = stringOf(message.type) ?? "unknown";
  const media = mediaOf(type, message);
  const text = textOf(type, message) ?? stringOf(objectOf(message[type])?.caption) ?? "";
  if (!media && text === "") {
    // Reactions, locations, contacts, orders, system notices, unsupported: nothing to answer.
    return { kind: "ignored" };
  }
  const seconds = Number(message.timestamp);
  const contact = params.contacts.find((c) => normalizeE164(c.wa_id) === number);
  const inbound: ChannelInbound = {
    channel: "whatsapp",
    accountId: params.accountId,
    messageId: id,
    timestamp: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : params.now(),
    sender: { id: number, ...(contact?.name ? { name: contact.name } : {}) },
    peer: { kind: "direct", id: number },
    text,
    mentions: [],
    mentionedSelf: false,
    media: media ? [media] : [],
    raw: params.message,
  };
  const quotedId = stringOf(objectOf(message.context)?.id);
  if (quotedId) {
    const known = params.recall(quotedId);
    inbound.replyTo = {
      id: quotedId,
      ...(known?.body ? { body: known.body } : {}),
      ...(known?.sender ? { sender: known.sender } : {}),
    };
  }
  return { kind: "inbound", inbound };
}
