// The part of a Telegram update the adapter reads, as a schema: every field `inbound.ts` touches is
// declared here with its type, and `inbound.ts` reads the validated value through `Static<>` types,
// so a field of an unexpected type (an update without `chat`, `photo` that is not an array, an
// entity whose `user` is a string…) is refused with a reason naming it instead of a TypeError.
// Fields the adapter does not read are not checked (Telegram adds fields all the time).
import { type Static, Type } from "typebox";
import { Compile } from "typebox/compile";

/** A Telegram id: an integer that prints as digits (ids fit in 52 bits; a larger one is not an id). */
const TelegramId = (options: { minimum?: number } = {}) =>
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...options });

/** A user as the adapter reads one (sender, mentioned user, quoted sender). */
export const TelegramUserSchema = Type.Object({
  id: TelegramId(),
  first_name: Type.Optional(Type.String()),
  last_name: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
});

/** The chat types the adapter turns into peers. */
export const TELEGRAM_CHAT_TYPES = ["private", "group", "supergroup", "channel"] as const;

/** The chat of a message (`sender_chat` too: channel posts and anonymous admins speak as a chat). */
export const TelegramChatSchema = Type.Object({
  id: TelegramId(),
  type: Type.Enum([...TELEGRAM_CHAT_TYPES]),
  title: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  is_forum: Type.Optional(Type.Boolean()),
});

/** A sender chat: like a chat, but its type is not read (any string). */
export const TelegramSenderChatSchema = Type.Object({
  id: TelegramId(),
  type: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
});

/** One text entity (UTF-16 offsets); `user` is read for `text_mention`. */
export const TelegramEntitySchema = Type.Object({
  type: Type.String(),
  offset: Type.Integer({ minimum: 0 }),
  length: Type.Integer({ minimum: 0 }),
  user: Type.Optional(TelegramUserSchema),
});

/** One size of a photo. */
export const TelegramPhotoSizeSchema = Type.Object({
  file_id: Type.String({ minLength: 1 }),
  width: Type.Number({ minimum: 0 }),
  height: Type.Number({ minimum: 0 }),
  file_size: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** A document, audio, video, voice note or sticker: the adapter passes its file id on. */
export const TelegramFileSchema = Type.Object({
  file_id: Type.String({ minLength: 1 }),
  mime_type: Type.Optional(Type.String()),
  file_name: Type.Optional(Type.String()),
  file_size: Type.Optional(Type.Integer({ minimum: 0 })),
});

/** The message a message replies to (only what the reply context reads). */
export const TelegramQuotedMessageSchema = Type.Object({
  message_id: TelegramId(),
  text: Type.Optional(Type.String()),
  caption: Type.Optional(Type.String()),
  from: Type.Optional(TelegramUserSchema),
  sender_chat: Type.Optional(TelegramSenderChatSchema),
  forum_topic_created: Type.Optional(Type.Unknown()),
});

/** A new message or channel post, as far as the adapter reads it. */
export const TelegramMessageSchema = Type.Object({
  message_id: TelegramId(),
  /** Unix seconds. */
  date: Type.Integer({ minimum: 0 }),
  chat: TelegramChatSchema,
  from: Type.Optional(TelegramUserSchema),
  sender_chat: Type.Optional(TelegramSenderChatSchema),
  text: Type.Optional(Type.String()),
  caption: Type.Optional(Type.String()),
  entities: Type.Optional(Type.Array(TelegramEntitySchema)),
  caption_entities: Type.Optional(Type.Array(TelegramEntitySchema)),
  reply_to_message: Type.Optional(TelegramQuotedMessageSchema),
  quote: Type.Optional(Type.Object({ text: Type.Optional(Type.String()) })),
  message_thread_id: Type.Optional(TelegramId()),
  is_topic_message: Type.Optional(Type.Boolean()),
  photo: Type.Optional(Type.Array(TelegramPhotoSizeSchema)),
  document: Type.Optional(TelegramFileSchema),
  audio: Type.Optional(TelegramFileSchema),
  video: Type.Optional(TelegramFileSchema),
  voice: Type.Optional(TelegramFileSchema),
  sticker: Type.Optional(TelegramFileSchema),
});

/** An update as the adapter reads it: its id and the new message or channel post it carries. */
export const TelegramUpdateSchema = Type.Object({
  update_id: TelegramId({ minimum: 0 }),
  message: Type.Optional(TelegramMessageSchema),
  channel_post: Type.Optional(TelegramMessageSchema),
});

/** A validated user. */
export type TelegramUser = Static<typeof TelegramUserSchema>;
/** A validated entity. */
export type TelegramEntity = Static<typeof TelegramEntitySchema>;
/** A validated photo size. */
export type TelegramPhotoSize = Static<typeof TelegramPhotoSizeSchema>;
/** A validated message or channel post. */
export type TelegramMessage = Static<typeof TelegramMessageSchema>;
/** A validated update. */
export type TelegramUpdate = Static<typeof TelegramUpdateSchema>;

/** `/message/entities/0/user` → `update.message.entities[0].user`. */
function fieldPath(instancePath: string): string {
  const parts = instancePath.split("/").filter(Boolean);
  return parts.reduce(
    (path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : `${path}.${part}`),
    "update",
  );
}

/** JSON-ish name of a value's type, for reasons ("got string"). */
function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The value at a JSON pointer of `root` (undefined when a step is missing). */
function valueAt(root: unknown, instancePath: string): unknown {
  let value = root;
  for (const part of instancePath.split("/").filter(Boolean)) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Result of parsing an update: the typed update, or the first thing wrong with it. */
export type ParsedTelegramUpdate =
  | { ok: true; update: TelegramUpdate }
  | { ok: false; reason: string };

/** Checks one raw getUpdates item; see {@link createTelegramUpdateParser}. */
export type TelegramUpdateParser = (raw: unknown) => ParsedTelegramUpdate;

/**
 * Compiles the schema (tens of ms, once per adapter; a check then costs microseconds) into a parser
 * whose reason names the field and what was wrong (`update.message.chat: missing`,
 * `update.message.photo: must be array, got object`).
 */
export function createTelegramUpdateParser(): TelegramUpdateParser {
  const validator = Compile(TelegramUpdateSchema);
  return (raw) =>
    validator.Check(raw)
      ? { ok: true, update: raw }
      : { ok: false, reason: reasonOf(validator, raw) };
}

function reasonOf(
  validator: ReturnType<typeof Compile<typeof TelegramUpdateSchema>>,
  raw: unknown,
): string {
  const [first] = validator.Errors(raw);
  if (!first) return "update: does not match the expected shape";
  const path = fieldPath(first.instancePath);
  const params = first.params as {
    requiredProperties?: string[];
    allowedValues?: unknown[];
  };
  if (first.keyword === "required" && params.requiredProperties) {
    return `${path}.${params.requiredProperties[0]}: missing`;
  }
  const value = valueAt(raw, first.instancePath);
  if (first.keyword === "enum" && params.allowedValues) {
    const got = typeof value === "string" ? `"${value.slice(0, 40)}"` : typeName(value);
    return `${path}: must be one of ${params.allowedValues.join(", ")}, got ${got}`;
  }
  return `${path}: ${first.message}, got ${typeName(value)}`;
}
