// MESSAGE_CREATE payloads as Discord's Gateway sends them (the fields discord.js and the adapter
// read), for tests that inject them through the fake Discord.
import type { FakeDiscordUser } from "./fake-discord.js";

let counter = 1_000_000_000_000_000n;

/** A fresh snowflake-shaped id. */
export function nextSnowflake(): string {
  counter += 1n;
  return String(counter);
}

/** Inputs for {@link discordMessage}. */
export interface DiscordMessageParams {
  author: FakeDiscordUser;
  channelId: string;
  content: string;
  guildId?: string;
  /** 1 for a DM, 3 for a group DM (Discord sends it on DM events). */
  channelType?: number;
  memberRoles?: string[];
  mentions?: FakeDiscordUser[];
  mentionRoles?: string[];
  attachments?: Array<Record<string, unknown>>;
  referenced?: Record<string, unknown>;
  id?: string;
}

/** A MESSAGE_CREATE `d` payload. */
export function discordMessage(params: DiscordMessageParams): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    id: params.id ?? nextSnowflake(),
    channel_id: params.channelId,
    author: { discriminator: "0", global_name: null, avatar: null, ...params.author },
    content: params.content,
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: (params.mentions ?? []).map((u) => ({ discriminator: "0", ...u })),
    mention_roles: params.mentionRoles ?? [],
    attachments: params.attachments ?? [],
    embeds: [],
    pinned: false,
    type: params.referenced ? 19 : 0,
    flags: 0,
  };
  if (params.guildId) {
    payload.guild_id = params.guildId;
    payload.member = { roles: params.memberRoles ?? [], joined_at: new Date(0).toISOString() };
  }
  if (params.channelType !== undefined) payload.channel_type = params.channelType;
  if (params.referenced) {
    payload.referenced_message = params.referenced;
    payload.message_reference = { message_id: params.referenced.id, channel_id: params.channelId };
  }
  return payload;
}
