// Builders of Telegram `Message` payloads for the fake Bot API server: private chats, groups, forum
// topics, replies and photos, shaped like the real Bot API sends them. Test double only.

/** A Telegram user as the Bot API describes one. */
export interface FakeUser {
  id: number;
  is_bot?: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
}

/** The sender used when a builder is not given one. */
export const ALICE: FakeUser = { id: 111, is_bot: false, first_name: "Alice", username: "alice" };

/** One message entity (UTF-16 offsets, as Telegram counts them). */
export interface FakeEntity {
  type: string;
  offset: number;
  length: number;
  user?: FakeUser;
}

/** Fields common to every builder. */
export interface FakeMessageBase {
  text?: string;
  from?: FakeUser;
  messageId?: number;
  /** Unix seconds. */
  date?: number;
  entities?: FakeEntity[];
}

let nextMessageId = 500;

function baseMessage(
  input: FakeMessageBase,
  chat: Record<string, unknown>,
): Record<string, unknown> {
  nextMessageId += 1;
  const message: Record<string, unknown> = {
    message_id: input.messageId ?? nextMessageId,
    date: input.date ?? 1_700_000_000,
    chat,
    from: input.from ?? ALICE,
  };
  if (input.text !== undefined) message.text = input.text;
  if (input.entities) message.entities = input.entities;
  return message;
}

/** A DM from `from` (default Alice) to the bot. */
export function privateMessage(input: FakeMessageBase): Record<string, unknown> {
  const from = input.from ?? ALICE;
  return baseMessage(input, {
    id: from.id,
    type: "private",
    first_name: from.first_name,
    username: from.username,
  });
}

/** A message in a (super)group; `chatId` defaults to a supergroup id. */
export function groupMessage(
  input: FakeMessageBase & { chatId?: number; type?: "group" | "supergroup" },
): Record<string, unknown> {
  return baseMessage(input, {
    id: input.chatId ?? -1001234567890,
    type: input.type ?? "supergroup",
    title: "Test group",
  });
}

/** A message in topic `topicId` of a forum supergroup (omit `topicId` for the General topic). */
export function topicMessage(
  input: FakeMessageBase & { chatId?: number; topicId?: number },
): Record<string, unknown> {
  const message = baseMessage(input, {
    id: input.chatId ?? -1009876543210,
    type: "supergroup",
    title: "Forum",
    is_forum: true,
  });
  if (input.topicId !== undefined) {
    message.message_thread_id = input.topicId;
    message.is_topic_message = true;
    // Telegram marks every topic message as a reply to the topic's service message.
    message.reply_to_message = {
      message_id: input.topicId,
      date: 1_699_999_000,
      chat: message.chat,
      from: ALICE,
      forum_topic_created: { name: "Topic", icon_color: 0 },
    };
  }
  return message;
}

/** Makes `message` a reply to `quoted` (optionally quoting part of it). */
export function asReply(
  message: Record<string, unknown>,
  quoted: Record<string, unknown>,
  quote?: string,
): Record<string, unknown> {
  const reply: Record<string, unknown> = { ...message, reply_to_message: quoted };
  if (quote !== undefined) reply.quote = { text: quote, position: 0, is_manual: true };
  return reply;
}

/** Adds a photo (two sizes: a thumbnail and the full file) with an optional caption. */
export function withPhoto(
  message: Record<string, unknown>,
  photo: { smallFileId: string; largeFileId: string; largeSize: number; caption?: string },
): Record<string, unknown> {
  const { text: _text, ...rest } = message;
  const out: Record<string, unknown> = {
    ...rest,
    photo: [
      { file_id: photo.smallFileId, file_unique_id: "s1", width: 90, height: 90, file_size: 100 },
      {
        file_id: photo.largeFileId,
        file_unique_id: "l1",
        width: 1280,
        height: 960,
        file_size: photo.largeSize,
      },
    ],
  };
  if (photo.caption !== undefined) out.caption = photo.caption;
  return out;
}

/** Adds a document (metadata only; adapters pass its file id on). */
export function withDocument(
  message: Record<string, unknown>,
  document: { fileId: string; fileName: string; mimeType?: string; size?: number },
): Record<string, unknown> {
  const { text: _text, ...rest } = message;
  return {
    ...rest,
    document: {
      file_id: document.fileId,
      file_unique_id: `u-${document.fileId}`,
      file_name: document.fileName,
      mime_type: document.mimeType,
      file_size: document.size,
    },
  };
}

/** An entity covering the first occurrence of `needle` in `text` (UTF-16 offsets). */
export function entityFor(text: string, needle: string, type: string, user?: FakeUser): FakeEntity {
  const offset = text.indexOf(needle);
  if (offset < 0) throw new Error(`"${needle}" is not in "${text}"`);
  return user
    ? { type, offset, length: needle.length, user }
    : { type, offset, length: needle.length };
}
