// Telegram message → normalized `ChannelInbound`: chat type → peer kind, forum topics as their own peer
// with the base group as parent, sender, text or caption, native mentions of the bot (@username,
// text_mention, /cmd@bot, reply to the bot), reply/quote context and media metadata. Pure. The update
// is checked against `update-schema.ts` first and read only through its types, so a malformed update
// becomes an `invalid` conversion naming the bad field, never a TypeError.
import { resolveTelegramGroupPeers } from "../../routing/index.js";
import type {
  ChannelInbound,
  ChannelPeer,
  InboundMedia,
  InboundReplyContext,
  UpdateConversion,
} from "../index.js";
import type {
  TelegramEntity,
  TelegramMessage,
  TelegramPhotoSize,
  TelegramUpdate,
  TelegramUpdateParser,
  TelegramUser,
} from "./update-schema.js";

/** The bot itself, from getMe: needed to tell mentions of it apart. */
export interface TelegramBotIdentity {
  id: string;
  username?: string;
  name?: string;
}

/** Inputs for {@link toChannelInbound}. */
export interface ToChannelInboundParams {
  /** The update as getUpdates returned it: unchecked. */
  update: unknown;
  accountId: string;
  bot: TelegramBotIdentity;
  /** The adapter's compiled update schema (`createTelegramUpdateParser`). */
  parse: TelegramUpdateParser;
}

/** The message an update carries, when it is one we turn into inbound (new messages and channel posts). */
export function messageOfUpdate(update: TelegramUpdate): TelegramMessage | undefined {
  return update.message ?? update.channel_post;
}

function displayName(user: Pick<TelegramUser, "first_name" | "last_name">): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ");
}

function senderOf(message: TelegramMessage): ChannelInbound["sender"] {
  if (message.from && !message.sender_chat) {
    const sender: ChannelInbound["sender"] = { id: String(message.from.id) };
    const name = displayName(message.from);
    if (name) sender.name = name;
    if (message.from.username) sender.username = message.from.username;
    return sender;
  }
  // Channel posts and anonymous group admins speak as a chat.
  const chat = message.sender_chat ?? message.chat;
  const sender: ChannelInbound["sender"] = { id: String(chat.id) };
  if (chat.title) sender.name = chat.title;
  if (chat.username) sender.username = chat.username;
  return sender;
}

interface PeerPlacement {
  peer: ChannelPeer;
  parentPeer?: ChannelPeer;
  threadId?: string;
}

/** Peer, parent peer and thread of a message; forum topics use the routing helper's `:topic:` ids. */
export function placeMessage(message: TelegramMessage): PeerPlacement {
  const chat = message.chat;
  if (chat.type === "private") return { peer: { kind: "direct", id: String(chat.id) } };
  if (chat.type === "channel") return { peer: { kind: "channel", id: String(chat.id) } };
  const isForum = chat.is_forum === true;
  const peers = resolveTelegramGroupPeers({
    chatId: chat.id,
    isForum,
    topicId: message.message_thread_id ?? null,
  });
  const placement: PeerPlacement = { peer: { kind: "group", id: String(peers.peer.id) } };
  if (peers.parentPeer) placement.parentPeer = { kind: "group", id: String(peers.parentPeer.id) };
  if (peers.topicId !== undefined) placement.threadId = peers.topicId;
  return placement;
}

/** True when `reply_to_message` is only the forum topic's opening service message, not a real reply. */
function isTopicAnchor(message: TelegramMessage): boolean {
  const quoted = message.reply_to_message;
  if (!quoted) return false;
  if (quoted.forum_topic_created) return true;
  return message.is_topic_message === true && quoted.message_id === message.message_thread_id;
}

function replyContextOf(message: TelegramMessage): InboundReplyContext | undefined {
  const quoted = message.reply_to_message;
  if (!quoted || isTopicAnchor(message)) return undefined;
  const context: InboundReplyContext = { id: String(quoted.message_id) };
  const body = message.quote?.text ?? quoted.text ?? quoted.caption;
  if (body) context.body = body;
  const label = quoted.from
    ? displayName(quoted.from) || quoted.from.username
    : quoted.sender_chat
      ? quoted.sender_chat.title || quoted.sender_chat.username
      : undefined;
  if (label) context.sender = label;
  return context;
}

interface MentionScan {
  mentions: string[];
  mentionedSelf: boolean;
}

/** Mentions in `text`; a `text_mention` without its `user` makes the update invalid (the reason). */
function scanMentions(
  text: string,
  entities: TelegramEntity[],
  bot: TelegramBotIdentity,
): MentionScan | string {
  const mentions: string[] = [];
  let mentionedSelf = false;
  const botName = bot.username?.toLowerCase();
  for (const [index, entity] of entities.entries()) {
    const slice = text.slice(entity.offset, entity.offset + entity.length);
    if (entity.type === "mention") {
      const username = slice.replace(/^@/, "");
      mentions.push(username);
      if (botName && username.toLowerCase() === botName) mentionedSelf = true;
    } else if (entity.type === "text_mention") {
      if (!entity.user) return `entities[${index}]: text_mention without user`;
      mentions.push(String(entity.user.id));
      if (String(entity.user.id) === bot.id) mentionedSelf = true;
    } else if (entity.type === "bot_command") {
      const target = slice.split("@")[1]?.toLowerCase();
      if (botName && target === botName) mentionedSelf = true;
    }
  }
  return { mentions, mentionedSelf };
}

function largestPhoto(sizes: TelegramPhotoSize[]): TelegramPhotoSize | undefined {
  return sizes.reduce<TelegramPhotoSize | undefined>((best, size) => {
    if (!best) return size;
    const area = (s: TelegramPhotoSize) => s.width * s.height;
    return area(size) > area(best) ? size : best;
  }, undefined);
}

/** Media metadata of a message; the photo entry is the largest size (its bytes are fetched later). */
export function mediaOf(message: TelegramMessage): InboundMedia[] {
  const media: InboundMedia[] = [];
  const photo = message.photo ? largestPhoto(message.photo) : undefined;
  if (photo) {
    media.push({
      kind: "image",
      mimeType: "image/jpeg",
      fileId: photo.file_id,
      size: photo.file_size,
    });
  }
  const files: Array<[InboundMedia["kind"], typeof message.document]> = [
    ["document", message.document],
    ["audio", message.audio],
    ["video", message.video],
    ["voice", message.voice],
    ["sticker", message.sticker],
  ];
  for (const [kind, file] of files) {
    if (!file) continue;
    const entry: InboundMedia = { kind, fileId: file.file_id };
    if (file.mime_type) entry.mimeType = file.mime_type;
    if (file.file_name) entry.fileName = file.file_name;
    if (file.file_size !== undefined) entry.size = file.file_size;
    media.push(entry);
  }
  return media.map((entry) =>
    Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)),
  ) as InboundMedia[];
}

/**
 * Normalizes one update: `inbound`, `ignored` for updates that carry no new message (edits,
 * callbacks…; the poller acknowledges them without handing anything on), or `invalid` with a reason
 * naming the malformed field (the poller logs and skips it).
 */
export function toChannelInbound(params: ToChannelInboundParams): UpdateConversion {
  const parsed = params.parse(params.update);
  if (!parsed.ok) return { kind: "invalid", reason: parsed.reason };
  const update = parsed.update;
  const message = messageOfUpdate(update);
  if (!message) return { kind: "ignored" };
  const where = update.message ? "update.message" : "update.channel_post";
  const text = message.text ?? message.caption ?? "";
  const entitiesField = message.entities ? "entities" : "caption_entities";
  const entities = message.entities ?? message.caption_entities ?? [];
  const scan = scanMentions(text, entities, params.bot);
  if (typeof scan === "string") {
    return { kind: "invalid", reason: `${where}.${scan.replace(/^entities/, entitiesField)}` };
  }
  const replyTo = replyContextOf(message);
  if (replyTo && String(message.reply_to_message?.from?.id) === params.bot.id) {
    scan.mentionedSelf = true;
  }
  const sender = senderOf(message);
  const inbound: ChannelInbound = {
    channel: "telegram",
    accountId: params.accountId,
    messageId: String(message.message_id),
    timestamp: message.date * 1000,
    sender,
    ...placeMessage(message),
    text,
    mentions: scan.mentions,
    mentionedSelf: scan.mentionedSelf,
    media: mediaOf(message),
    raw: params.update,
  };
  if (sender.id === params.bot.id) inbound.fromSelf = true;
  if (params.bot.username) inbound.selfUsername = params.bot.username;
  if (replyTo) inbound.replyTo = replyTo;
  return { kind: "inbound", inbound };
}
