// Telegram message → normalized `ChannelInbound`: chat type → peer kind, forum topics as their own peer
// with the base group as parent, sender, text or caption, native mentions of the bot (@username,
// text_mention, /cmd@bot, reply to the bot), reply/quote context and media metadata. Pure.
import type { Chat, Message, MessageEntity, PhotoSize, Update, User } from "grammy/types";
import { resolveTelegramGroupPeers } from "../../routing/index.js";
import type { ChannelInbound, ChannelPeer, InboundMedia, InboundReplyContext } from "../types.js";

/** The bot itself, from getMe: needed to tell mentions of it apart. */
export interface TelegramBotIdentity {
  id: string;
  username?: string;
  name?: string;
}

/** Inputs for {@link toChannelInbound}. */
export interface ToChannelInboundParams {
  update: Update;
  accountId: string;
  bot: TelegramBotIdentity;
}

/** The message an update carries, when it is one we turn into inbound (new messages and channel posts). */
export function messageOfUpdate(update: Update): Message | undefined {
  return update.message ?? update.channel_post;
}

function displayName(user: Pick<User, "first_name" | "last_name">): string {
  return [user.first_name, user.last_name].filter(Boolean).join(" ");
}

function senderOf(message: Message): ChannelInbound["sender"] {
  if (message.from && !message.sender_chat) {
    const sender: ChannelInbound["sender"] = { id: String(message.from.id) };
    const name = displayName(message.from);
    if (name) sender.name = name;
    if (message.from.username) sender.username = message.from.username;
    return sender;
  }
  // Channel posts and anonymous group admins speak as a chat.
  const chat: Chat = message.sender_chat ?? message.chat;
  const sender: ChannelInbound["sender"] = { id: String(chat.id) };
  if ("title" in chat && chat.title) sender.name = chat.title;
  if ("username" in chat && chat.username) sender.username = chat.username;
  return sender;
}

interface PeerPlacement {
  peer: ChannelPeer;
  parentPeer?: ChannelPeer;
  threadId?: string;
}

/** Peer, parent peer and thread of a message; forum topics use the routing helper's `:topic:` ids. */
export function placeMessage(message: Message): PeerPlacement {
  const chat = message.chat;
  if (chat.type === "private") return { peer: { kind: "direct", id: String(chat.id) } };
  if (chat.type === "channel") return { peer: { kind: "channel", id: String(chat.id) } };
  const isForum = "is_forum" in chat && chat.is_forum === true;
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
function isTopicAnchor(message: Message): boolean {
  const quoted = message.reply_to_message;
  if (!quoted) return false;
  if (quoted.forum_topic_created) return true;
  return message.is_topic_message === true && quoted.message_id === message.message_thread_id;
}

function replyContextOf(message: Message): InboundReplyContext | undefined {
  const quoted = message.reply_to_message;
  if (!quoted || isTopicAnchor(message)) return undefined;
  const context: InboundReplyContext = { id: String(quoted.message_id) };
  const body = message.quote?.text ?? quoted.text ?? quoted.caption;
  if (body) context.body = body;
  const sender = quoted.from ?? quoted.sender_chat;
  if (sender) {
    const name = "first_name" in sender && sender.first_name ? displayName(sender as User) : "";
    const title = "title" in sender ? sender.title : undefined;
    const label = name || title || ("username" in sender ? sender.username : undefined);
    if (label) context.sender = label;
  }
  return context;
}

interface MentionScan {
  mentions: string[];
  mentionedSelf: boolean;
}

function scanMentions(
  text: string,
  entities: MessageEntity[],
  bot: TelegramBotIdentity,
): MentionScan {
  const mentions: string[] = [];
  let mentionedSelf = false;
  const botName = bot.username?.toLowerCase();
  for (const entity of entities) {
    const slice = text.slice(entity.offset, entity.offset + entity.length);
    if (entity.type === "mention") {
      const username = slice.replace(/^@/, "");
      mentions.push(username);
      if (botName && username.toLowerCase() === botName) mentionedSelf = true;
    } else if (entity.type === "text_mention") {
      mentions.push(String(entity.user.id));
      if (String(entity.user.id) === bot.id) mentionedSelf = true;
    } else if (entity.type === "bot_command") {
      const target = slice.split("@")[1]?.toLowerCase();
      if (botName && target === botName) mentionedSelf = true;
    }
  }
  return { mentions, mentionedSelf };
}

function largestPhoto(sizes: PhotoSize[]): PhotoSize | undefined {
  return sizes.reduce<PhotoSize | undefined>((best, size) => {
    if (!best) return size;
    const area = (s: PhotoSize) => s.width * s.height;
    return area(size) > area(best) ? size : best;
  }, undefined);
}

/** Media metadata of a message; the photo entry is the largest size (its bytes are fetched later). */
export function mediaOf(message: Message): InboundMedia[] {
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
    if ("mime_type" in file && file.mime_type) entry.mimeType = file.mime_type;
    if ("file_name" in file && file.file_name) entry.fileName = file.file_name;
    if (file.file_size !== undefined) entry.size = file.file_size;
    media.push(entry);
  }
  return media.map((entry) =>
    Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)),
  ) as InboundMedia[];
}

/**
 * Normalizes one update; `undefined` for updates that carry no new message (edits, callbacks…), which
 * the poller acknowledges without handing anything on.
 */
export function toChannelInbound(params: ToChannelInboundParams): ChannelInbound | undefined {
  const message = messageOfUpdate(params.update);
  if (!message) return undefined;
  const text = message.text ?? message.caption ?? "";
  const entities = message.entities ?? message.caption_entities ?? [];
  const scan = scanMentions(text, entities, params.bot);
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
  if (replyTo) inbound.replyTo = replyTo;
  return inbound;
}
