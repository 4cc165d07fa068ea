// A Slack `message` / `app_mention` event → `ChannelInbound`, pure. Channels and private channels
// are peer kind `channel` (`teamId` set for the team tier), DMs (`im`) are `direct` with the user
// as the peer, group DMs (`mpim`) are `group`. A reply in a thread keeps the channel as its peer and
// parent and carries `threadId` = the thread's ts and the account's `thread.*` settings.
// `<@BOTID>` (or the event being an `app_mention`) is a native mention of this bot; other `<@U…>`
// go to `mentions`. Files become media. Bot posts are skipped unless `allowBots` (this bot's own
// always), and subtypes that are not a user's content (edits, deletions, joins, …) are ignored.
import type {
  ChannelInbound,
  InboundMedia,
  PeerKind,
  ThreadSessionSettings,
  UpdateConversion,
} from "../index.js";

/** Message subtypes that carry a user's content; any other subtype is ignored. */
const CONTENT_SUBTYPES = new Set(["file_share", "thread_broadcast", "me_message", "bot_message"]);

/** Who this account is on Slack (from `auth.test`). */
export interface SlackSelf {
  userId: string;
  botId?: string;
}

/** Inputs of {@link toSlackInbound}. */
export interface SlackInboundParams {
  /** The event (`body.event`), unchecked. */
  event: unknown;
  /** The envelope's `team_id`, when it has one. */
  teamId?: string;
  accountId: string;
  self: SlackSelf;
  allowBots: boolean;
  /** The channel's name when known (`conversations.info`), for name-keyed rules. */
  channelName?: string;
  /** The account's `thread.*`, carried by thread replies. */
  thread?: ThreadSessionSettings;
}

type Loose = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The peer kind of a Slack conversation: its `channel_type`, else guessed from the id's prefix. */
export function slackPeerKind(channelType: unknown, channelId: string): PeerKind {
  if (channelType === "im") return "direct";
  if (channelType === "mpim") return "group";
  if (channelType === "channel" || channelType === "group") return "channel";
  return channelId.startsWith("D") ? "direct" : "channel";
}

function mediaKind(mime: string | undefined): InboundMedia["kind"] {
  if (mime?.startsWith("image/")) return "image";
  if (mime?.startsWith("audio/")) return "audio";
  if (mime?.startsWith("video/")) return "video";
  return "document";
}

function filesOf(event: Loose): InboundMedia[] {
  if (!Array.isArray(event.files)) return [];
  const out: InboundMedia[] = [];
  for (const raw of event.files) {
    if (!raw || typeof raw !== "object") continue;
    const file = raw as Loose;
    const mimeType = str(file.mimetype);
    const url = str(file.url_private);
    const fileId = str(file.id);
    const fileName = str(file.name);
    out.push({
      kind: mediaKind(mimeType),
      ...(fileId ? { fileId } : {}),
      ...(url ? { url } : {}),
      ...(fileName ? { fileName } : {}),
      ...(mimeType ? { mimeType } : {}),
      ...(typeof file.size === "number" ? { size: file.size } : {}),
    });
  }
  return out;
}

/** Slack's markup in message text as plain text: `<@U1>` → `@U1`, `<#C1|general>` → `#general`,
 *  `<url|label>` → `label (url)`, `<!here>` → `@here`, entities unescaped. */
export function slackTextToPlain(text: string): string {
  return text
    .replace(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g, "@$1")
    .replace(/<#([A-Z0-9]+)\|([^>]*)>/g, (_m, id: string, name: string) => `#${name || id}`)
    .replace(/<#([A-Z0-9]+)>/g, "#$1")
    .replace(/<!(here|channel|everyone)(?:\|[^>]*)?>/g, "@$1")
    .replace(/<((?:https?|mailto):[^|>]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<((?:https?|mailto):[^>]+)>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** User ids mentioned as `<@U…>` in Slack text. */
export function mentionedUserIds(text: string): string[] {
  return [...new Set([...text.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((m) => m[1]!))];
}

function isBotPost(event: Loose): boolean {
  return event.subtype === "bot_message" || str(event.bot_id) !== undefined;
}

/** Converts one event; `ignored` for what is not a user's message here, `invalid` naming the field. */
export function toSlackInbound(params: SlackInboundParams): UpdateConversion {
  const { event: raw, self } = params;
  if (!raw || typeof raw !== "object") return { kind: "invalid", reason: "event is not an object" };
  const event = raw as Loose;
  if (event.type !== "message" && event.type !== "app_mention") return { kind: "ignored" };
  const subtype = str(event.subtype);
  if (subtype && !CONTENT_SUBTYPES.has(subtype)) return { kind: "ignored" };
  const channelId = str(event.channel);
  if (!channelId) return { kind: "invalid", reason: "event.channel is missing" };
  const ts = str(event.ts);
  if (!ts || !/^\d+(\.\d+)?$/.test(ts))
    return { kind: "invalid", reason: "event.ts is missing or not a Slack timestamp" };
  const user = str(event.user);
  const botId = str(event.bot_id);
  if (user === self.userId || (botId !== undefined && botId === self.botId))
    return { kind: "ignored" };
  if (isBotPost(event) && !params.allowBots) return { kind: "ignored" };
  const senderId = user ?? botId;
  if (!senderId) return { kind: "invalid", reason: "event.user is missing" };
  const text = typeof event.text === "string" ? event.text : "";
  const kind = slackPeerKind(event.channel_type, channelId);
  const peer = { kind, id: kind === "direct" ? senderId : channelId };
  const threadTs = str(event.thread_ts);
  const inThread = threadTs !== undefined && threadTs !== ts;
  const mentioned = mentionedUserIds(text);
  const profile = (event.user_profile ?? {}) as Loose;
  const name = str(profile.display_name) ?? str(profile.real_name) ?? str(event.username);
  const teamId = params.teamId ?? str(event.team);
  const inbound: ChannelInbound = {
    channel: "slack",
    accountId: params.accountId,
    messageId: ts,
    timestamp: Math.round(Number(ts) * 1000),
    sender: { id: senderId, ...(name ? { name } : {}) },
    peer,
    ...(params.channelName && kind !== "direct" ? { peerName: params.channelName } : {}),
    ...(inThread ? { threadId: threadTs } : {}),
    ...(inThread && kind !== "direct" ? { parentPeer: { kind, id: channelId } } : {}),
    ...(inThread && params.channelName && kind !== "direct"
      ? { parentPeerName: params.channelName }
      : {}),
    ...(teamId ? { teamId } : {}),
    text: slackTextToPlain(text),
    mentions: mentioned.filter((id) => id !== self.userId),
    mentionedSelf: event.type === "app_mention" || mentioned.includes(self.userId),
    media: filesOf(event),
    ...(inThread && params.thread ? { threadSession: params.thread } : {}),
    raw: { channel: channelId, ts, ...(threadTs ? { thread_ts: threadTs } : {}) },
  };
  return { kind: "inbound", inbound };
}
