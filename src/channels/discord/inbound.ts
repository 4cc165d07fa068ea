// A checked Discord message → `ChannelInbound`, given what the client knows of its channel and guild
// (pure): guild text channels (peer kind `channel`, guild id and name, the author's role ids), threads
// and forum posts (peer = the thread, `parentPeer` = its channel, `threadId`), DMs (peer = the user),
// group DMs (peer kind `group`), replies (`replyTo`), @mentions of the bot or of its roles, and
// attachments as media. Own messages, other bots' (unless `allowBots`) and system messages are ignored.
import type { ChannelInbound, InboundMedia } from "../index.js";
import type { DiscordAttachment, DiscordMessage } from "./message-schema.js";

/** Discord channel types the adapter tells apart. */
export const DISCORD_CHANNEL = {
  guildText: 0,
  dm: 1,
  groupDm: 3,
  announcementThread: 10,
  publicThread: 11,
  privateThread: 12,
} as const;

/** Message types handled: default and reply; the rest are system messages (pins, joins, …). */
const HANDLED_MESSAGE_TYPES = new Set([0, 19]);

/** What the client knows of the message's channel (from its cache or a fetch). */
export interface DiscordChannelFacts {
  type: number;
  name?: string;
  /** A thread's parent channel (a text, announcement or forum channel). */
  parentId?: string;
  parentName?: string;
}

/** What the client knows of the message's guild. */
export interface DiscordGuildFacts {
  name?: string;
  /** The bot member's role ids (its `@everyone` excluded): a mention of one mentions the bot. */
  selfRoleIds: string[];
}

/** Who the bot is. */
export interface DiscordSelf {
  id: string;
  username?: string;
}

/** Inputs for {@link toDiscordInbound}. */
export interface ToDiscordInboundParams {
  message: DiscordMessage;
  channel?: DiscordChannelFacts;
  guild?: DiscordGuildFacts;
  self: DiscordSelf;
  accountId: string;
  allowBots: boolean;
}

/** The inbound message, or why it is not one (for a debug line). */
export type DiscordInboundResult =
  | { kind: "inbound"; inbound: ChannelInbound }
  | { kind: "ignored"; reason: string };

/** True for the thread channel types (forum posts are public threads). */
export function isThreadType(type: number | undefined): boolean {
  return (
    type === DISCORD_CHANNEL.announcementThread ||
    type === DISCORD_CHANNEL.publicThread ||
    type === DISCORD_CHANNEL.privateThread
  );
}

function mediaKind(contentType: string | undefined): InboundMedia["kind"] {
  const type = contentType?.toLowerCase() ?? "";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("audio/")) return "audio";
  if (type.startsWith("video/")) return "video";
  return "document";
}

function toMedia(attachment: DiscordAttachment): InboundMedia {
  const media: InboundMedia = {
    kind: mediaKind(attachment.contentType),
    fileName: attachment.filename,
    fileId: attachment.id,
  };
  if (attachment.contentType) media.mimeType = attachment.contentType;
  if (attachment.size !== undefined) media.size = attachment.size;
  if (attachment.url) media.url = attachment.url;
  return media;
}

/** Peer, parent and names of the conversation. */
function placement(
  params: ToDiscordInboundParams,
): Pick<ChannelInbound, "peer" | "peerName" | "parentPeer" | "parentPeerName" | "threadId"> {
  const { message, channel } = params;
  const type = channel?.type ?? message.channelType;
  if (!message.guildId) {
    if (type === DISCORD_CHANNEL.groupDm) {
      const named = channel?.name ? { peerName: channel.name } : {};
      return { peer: { kind: "group", id: message.channelId }, ...named };
    }
    return { peer: { kind: "direct", id: message.author.id } };
  }
  const peer = { kind: "channel" as const, id: message.channelId };
  const named = channel?.name ? { peerName: channel.name } : {};
  if (isThreadType(type) && channel?.parentId) {
    return {
      peer,
      ...named,
      parentPeer: { kind: "channel", id: channel.parentId },
      ...(channel.parentName ? { parentPeerName: channel.parentName } : {}),
      threadId: message.channelId,
    };
  }
  return { peer, ...named };
}

function mentionsSelf(params: ToDiscordInboundParams): boolean {
  const { message, guild, self } = params;
  if (message.mentions.includes(self.id)) return true;
  if (message.referenced?.authorId === self.id) return true;
  const roles = new Set(guild?.selfRoleIds ?? []);
  return message.mentionRoles.some((role) => roles.has(role));
}

/** Converts one checked message; pure. */
export function toDiscordInbound(params: ToDiscordInboundParams): DiscordInboundResult {
  const { message, self } = params;
  if (message.author.id === self.id) return { kind: "ignored", reason: "own message" };
  if (message.author.bot && !params.allowBots) {
    return { kind: "ignored", reason: "written by a bot (allowBots is off)" };
  }
  if (!HANDLED_MESSAGE_TYPES.has(message.type)) {
    return { kind: "ignored", reason: `system message (type ${message.type})` };
  }
  const media = message.attachments.map(toMedia);
  if (!message.content.trim() && media.length === 0) {
    return { kind: "ignored", reason: "no text and no attachments" };
  }
  const { author } = message;
  const name = message.member?.nick ?? author.globalName ?? author.username;
  const inbound: ChannelInbound = {
    channel: "discord",
    accountId: params.accountId,
    messageId: message.id,
    timestamp: message.timestamp,
    sender: {
      id: author.id,
      ...(name ? { name } : {}),
      ...(author.username ? { username: author.username } : {}),
    },
    ...placement(params),
    text: message.content,
    mentions: [...message.mentions, ...message.mentionRoles.map((role) => `role:${role}`)],
    mentionedSelf: mentionsSelf(params),
    media,
  };
  if (self.username) inbound.selfUsername = self.username;
  if (message.guildId) {
    inbound.guildId = message.guildId;
    if (params.guild?.name) inbound.guildName = params.guild.name;
    inbound.memberRoleIds = message.member?.roles ?? [];
  }
  if (message.referenced) {
    const { id, content, authorName } = message.referenced;
    inbound.replyTo = {
      id,
      ...(content ? { body: content } : {}),
      ...(authorName ? { sender: authorName } : {}),
    };
  }
  return { kind: "inbound", inbound };
}
