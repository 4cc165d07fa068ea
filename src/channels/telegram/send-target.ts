// Where an outbound message goes in Bot API terms: the chat id (topic peers `<chatId>:topic:<id>` are
// split back apart), the forum topic (`message_thread_id`; the General topic 1 is sent without one) and
// the message to reply to (`reply_parameters`).
import type { OutboundTarget } from "../index.js";

/** Bot API placement of a message. */
export interface TelegramPlacement {
  chatId: number | string;
  messageThreadId?: number;
  replyToMessageId?: number;
}

const TOPIC_PEER = /^(.+):topic:(\d+)$/;
const GENERAL_TOPIC = 1;

function asChatId(raw: string): number | string {
  // Numeric ids go as numbers; `@channelname` stays a string.
  return /^-?\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
}

function asMessageId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/** Resolves a target to chat, topic and reply ids. */
export function placeOutbound(target: OutboundTarget): TelegramPlacement {
  const topicPeer = TOPIC_PEER.exec(target.peer.id);
  const chatId = asChatId(topicPeer ? topicPeer[1]! : target.peer.id);
  const topic = asMessageId(target.threadId) ?? asMessageId(topicPeer?.[2]);
  const placement: TelegramPlacement = { chatId };
  if (topic !== undefined && topic !== GENERAL_TOPIC) placement.messageThreadId = topic;
  const replyTo = asMessageId(target.replyToId);
  if (replyTo !== undefined) placement.replyToMessageId = replyTo;
  return placement;
}

/** The `message_thread_id` / `reply_parameters` fields of a send call for a placement. */
export function placementFields(
  placement: TelegramPlacement,
  withReply: boolean,
): {
  message_thread_id?: number;
  reply_parameters?: { message_id: number; allow_sending_without_reply: boolean };
} {
  const fields: ReturnType<typeof placementFields> = {};
  if (placement.messageThreadId !== undefined) fields.message_thread_id = placement.messageThreadId;
  if (withReply && placement.replyToMessageId !== undefined) {
    // A deleted original must not make the reply fail.
    fields.reply_parameters = {
      message_id: placement.replyToMessageId,
      allow_sending_without_reply: true,
    };
  }
  return fields;
}
