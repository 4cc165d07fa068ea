// The shape check of a Gateway MESSAGE_CREATE payload: the fields the adapter reads, each checked,
// with a reason naming the first one that is wrong. Pure; the payload is the Gateway's JSON as
// discord.js hands it on raw, so a malformed dispatch is skipped by the update guard, not thrown.

/** An attachment of a message, as far as the adapter reads it. */
export interface DiscordAttachment {
  id: string;
  filename: string;
  contentType?: string;
  size?: number;
  url?: string;
}

/** The message a reply points at (Discord sends it whole as `referenced_message`). */
export interface DiscordReferencedMessage {
  id: string;
  content?: string;
  authorId?: string;
  authorName?: string;
}

/** A MESSAGE_CREATE payload with the fields the adapter uses, checked. */
export interface DiscordMessage {
  id: string;
  channelId: string;
  guildId?: string;
  /** `channel_type` when Discord sends it (1 DM, 3 group DM, …). */
  channelType?: number;
  /** Message type: 0 default, 19 reply; others are system messages. */
  type: number;
  author: { id: string; username: string; globalName?: string; bot: boolean };
  /** The author's guild nickname and role ids (guild messages). */
  member?: { nick?: string; roles: string[] };
  content: string;
  timestamp: number;
  mentions: string[];
  mentionRoles: string[];
  attachments: DiscordAttachment[];
  referenced?: DiscordReferencedMessage;
}

/** A checked message, or the reason it is malformed. */
export type ParsedDiscordMessage =
  | { ok: true; message: DiscordMessage }
  | { ok: false; reason: string };

type Fields = Record<string, unknown>;

class Malformed extends Error {}

function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function object(value: unknown, field: string): Fields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Malformed(`${field}: expected an object, got ${typeName(value)}`);
  }
  return value as Fields;
}

function snowflake(value: unknown, field: string): string {
  if (typeof value !== "string" || !/^\d{1,20}$/.test(value)) {
    throw new Malformed(`${field}: expected a snowflake string, got ${typeName(value)}`);
  }
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw new Malformed(`${field}: expected a string, got ${typeName(value)}`);
  return value;
}

function array(value: unknown, field: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new Malformed(`${field}: expected an array, got ${typeName(value)}`);
  return value;
}

function author(value: unknown, field: string): DiscordMessage["author"] {
  const fields = object(value, field);
  const username = optionalString(fields.username, `${field}.username`) ?? "";
  const globalName = optionalString(fields.global_name, `${field}.global_name`);
  return {
    id: snowflake(fields.id, `${field}.id`),
    username,
    ...(globalName ? { globalName } : {}),
    bot: fields.bot === true,
  };
}

function attachment(value: unknown, field: string): DiscordAttachment {
  const fields = object(value, field);
  const contentType = optionalString(fields.content_type, `${field}.content_type`);
  const url = optionalString(fields.url, `${field}.url`);
  return {
    id: snowflake(fields.id, `${field}.id`),
    filename: optionalString(fields.filename, `${field}.filename`) ?? "file",
    ...(contentType ? { contentType } : {}),
    ...(typeof fields.size === "number" ? { size: fields.size } : {}),
    ...(url ? { url } : {}),
  };
}

function referenced(value: unknown): DiscordReferencedMessage | undefined {
  if (value === undefined || value === null) return undefined;
  const fields = object(value, "referenced_message");
  const content = optionalString(fields.content, "referenced_message.content");
  const ref: DiscordReferencedMessage = { id: snowflake(fields.id, "referenced_message.id") };
  if (content) ref.content = content;
  if (fields.author !== undefined) {
    const who = author(fields.author, "referenced_message.author");
    ref.authorId = who.id;
    ref.authorName = who.globalName ?? who.username;
  }
  return ref;
}

function member(value: unknown): DiscordMessage["member"] {
  if (value === undefined || value === null) return undefined;
  const fields = object(value, "member");
  const nick = optionalString(fields.nick, "member.nick");
  const roles = array(fields.roles, "member.roles").map((id, i) =>
    snowflake(id, `member.roles[${i}]`),
  );
  return { ...(nick ? { nick } : {}), roles };
}

function parse(payload: unknown): DiscordMessage {
  const d = object(payload, "message");
  const timestampText = optionalString(d.timestamp, "timestamp");
  const timestamp = timestampText ? Date.parse(timestampText) : Number.NaN;
  if (!Number.isFinite(timestamp)) throw new Malformed("timestamp: expected an ISO date");
  const guildId = d.guild_id === undefined ? undefined : snowflake(d.guild_id, "guild_id");
  const content = d.content === undefined ? "" : optionalString(d.content, "content");
  const message: DiscordMessage = {
    id: snowflake(d.id, "id"),
    channelId: snowflake(d.channel_id, "channel_id"),
    type: typeof d.type === "number" ? d.type : 0,
    author: author(d.author, "author"),
    content: content ?? "",
    timestamp,
    mentions: array(d.mentions, "mentions").map((u, i) =>
      snowflake(object(u, `mentions[${i}]`).id, `mentions[${i}].id`),
    ),
    mentionRoles: array(d.mention_roles, "mention_roles").map((id, i) =>
      snowflake(id, `mention_roles[${i}]`),
    ),
    attachments: array(d.attachments, "attachments").map((a, i) =>
      attachment(a, `attachments[${i}]`),
    ),
  };
  if (guildId) message.guildId = guildId;
  if (typeof d.channel_type === "number") message.channelType = d.channel_type;
  const who = member(d.member);
  if (who) message.member = who;
  const ref = referenced(d.referenced_message);
  if (ref) message.referenced = ref;
  return message;
}

/** Checks a MESSAGE_CREATE payload; never throws. */
export function parseDiscordMessage(payload: unknown): ParsedDiscordMessage {
  try {
    return { ok: true, message: parse(payload) };
  } catch (err) {
    if (err instanceof Malformed) return { ok: false, reason: err.message };
    throw err;
  }
}
