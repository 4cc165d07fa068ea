// The channel adapter contract: what every chat platform (Telegram, WhatsApp, Discord, …) implements so
// the inbound pipeline, delivery and the gateway can treat them alike. Built-in adapters register
// through the same registry a third-party adapter would use. No logic here.
import type { Logger } from "../lib/logger.js";
import type { ChatType } from "../routing/index.js";
import type { ChannelLogin } from "./login.js";

/** Peer kinds as routing sees them: a DM partner, a group, or a broadcast channel. */
export type PeerKind = ChatType;

/** A conversation on a platform: the DM partner, group or channel, by its platform id (as a string). */
export interface ChannelPeer {
  kind: PeerKind;
  id: string;
}

/** One attachment of an inbound message. Adapters fill what the platform gives; `fileId` fetches later. */
export interface InboundMedia {
  kind: "image" | "audio" | "video" | "document" | "sticker" | "voice";
  mimeType?: string;
  fileName?: string;
  size?: number;
  /** Platform handle to download the file (Telegram file_id, …). */
  fileId?: string;
  /** A URL the gateway can fetch, when the platform gives one. */
  url?: string;
  /** Inline bytes, base64, when the adapter already downloaded them (images for the model). */
  data?: string;
}

/** The quoted message an inbound message replies to (becomes a `[Replying to …]` block). */
export interface InboundReplyContext {
  id: string;
  body?: string;
  sender?: string;
}

/**
 * One inbound message, normalized. Every adapter produces exactly this; nothing downstream looks at
 * platform payloads (`raw` is for logs only).
 */
export interface ChannelInbound {
  channel: string;
  accountId: string;
  /** Platform message id, unique within (channel, accountId, peer): the dedupe key. */
  messageId: string;
  /** ms epoch. */
  timestamp: number;
  sender: { id: string; name?: string; username?: string };
  peer: ChannelPeer;
  /** The conversation's display name when the platform gives one (a WhatsApp group's subject). */
  peerName?: string;
  /** Parent of a thread or forum topic, so bindings on the parent still match. */
  parentPeer?: ChannelPeer;
  /** Thread / forum topic id, when the message is in one. */
  threadId?: string;
  /** The parent's display name (a thread's channel), for rules keyed by channel slug. */
  parentPeerName?: string;
  guildId?: string;
  /** The guild's name, for `guilds` rules keyed by slug (Discord). */
  guildName?: string;
  teamId?: string;
  memberRoleIds?: string[];
  text: string;
  /** Platform ids / usernames mentioned natively (@user). */
  mentions: string[];
  /** True when the platform says this account (the bot) was mentioned or replied to. */
  mentionedSelf: boolean;
  /** True when the sender is this account itself (self-chat). */
  fromSelf?: boolean;
  /** This account's own username on the platform (no `@`), when it has one: a command addressed
   *  as `/name@username` is this account's only when the name matches. */
  selfUsername?: string;
  media: InboundMedia[];
  replyTo?: InboundReplyContext;
  /** How a thread message's sessions keep context, when the adapter has settings for it (Slack's
   *  `thread.*`); absent: the thread shares its conversation's group context, nothing is fetched. */
  threadSession?: ThreadSessionSettings;
  raw?: unknown;
}

/** A thread's context settings (OpenClaw's `thread.*` of Slack): whose unmentioned messages a
 *  thread reply sees (`thread`: its thread's only; `channel`: its conversation's), how many earlier
 *  thread messages a new thread session is given (0: none), and whether it starts as a copy of
 *  its parent conversation's session. */
export interface ThreadSessionSettings {
  historyScope: "thread" | "channel";
  initialHistoryLimit: number;
  inheritParent: boolean;
}

/** Which thread's earlier messages to read (`ChannelAccountRuntime.threadHistory`). */
export interface ThreadHistoryQuery {
  /** The conversation (a thread's parent; a DM's partner). */
  peer: ChannelPeer;
  threadId: string;
  /** Only messages before this one (the message that starts the session). */
  beforeMessageId: string;
  /** At most this many, the newest. */
  limit: number;
}

/** One earlier message of a thread, as context: who, what (plain text), when (ms epoch). */
export interface ThreadHistoryMessage {
  sender: string;
  body: string;
  timestamp: number;
}

/** Where a reply goes: the same account, peer and thread the message came from. */
export interface OutboundTarget {
  accountId: string;
  peer: ChannelPeer;
  threadId?: string;
  /** Platform message id to reply to / quote. */
  replyToId?: string;
}

/** One outbound attachment: a URL or a local file path. */
export interface OutboundMedia {
  url?: string;
  path?: string;
  kind?: InboundMedia["kind"];
  fileName?: string;
  caption?: string;
}

/** One message to send. `text` is Markdown as the model wrote it; the adapter converts it. */
export interface OutboundMessage {
  target: OutboundTarget;
  text?: string;
  media?: OutboundMedia[];
  /** Replace the text of this earlier message of the account instead of sending a new one (a
   *  streamed preview becoming the reply); only sent where `capabilities.edits` is true. The
   *  receipt names the same message. */
  editMessageId?: string;
}

/** What a successful send returns. */
export interface SendReceipt {
  messageId: string;
}

/**
 * A failed send, as a value. `retryable` says the message certainly did not arrive and may be sent
 * again (rate limit, 5xx, connection refused); `false` when it was rejected or the outcome is unknown,
 * so a retry could double it. `uncertain` marks the unknown outcome (a timeout or a dropped
 * connection after the request went out): delivery reports it as such and never retries it.
 */
export interface SendFailure {
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  code?: string;
  uncertain?: boolean;
}

/** Result of a send: a receipt or a failure. Adapters never throw for platform errors. */
export type SendResult = { ok: true; receipt: SendReceipt } | { ok: false; failure: SendFailure };

/** What a platform can do; delivery reads it to chunk and format. */
export interface ChannelCapabilities {
  /** Longest text one message may carry, after formatting (Telegram: 4096). */
  maxTextLength: number;
  /** Markdown flavour the adapter renders into (for docs and the delivery chunker). */
  markdown: "html" | "markdownv2" | "mrkdwn" | "markdown" | "plain";
  typing: boolean;
  threads: boolean;
  media: boolean;
  /** Native @mentions of the bot exist on this platform. */
  nativeMentions: boolean;
  /** The account's sent messages can be edited (`OutboundMessage.editMessageId`): replies can
   *  stream into a preview message (`streaming`). */
  edits?: boolean;
}

/** A live status snapshot of one account, for `channels status` and the `channels.status` method. */
export interface ChannelAccountStatus {
  connected: boolean;
  lastInboundAt?: number;
  lastOutboundAt?: number;
  lastError?: string;
  lastErrorAt?: number;
  /** Who the account is on the platform (bot username, phone number, …), once known. */
  identity?: { id: string; name?: string; username?: string };
}

/** Result of a probe: the platform answered (with who we are), or why not. */
export type ProbeResult =
  | { ok: true; identity: { id: string; name?: string; username?: string }; latencyMs: number }
  | { ok: false; error: string };

/** The logger handed to adapters (pino's shape), re-exported so an adapter needs only this module. */
export type { Logger };

/** The resolved settings of one account: the channel's keys with the account's keys over them. */
export type ChannelAccountConfig = Record<string, unknown>;

/** One chat command as a platform's command menu lists it. */
export interface ChannelMenuCommand {
  /** Canonical name, lowercase, without `/`. */
  name: string;
  description: string;
}

/** The chat commands the gateway answers, for a platform's native command menu (Telegram's
 *  `setMyCommands`). `native` is `commands.native`: true or "auto" register the menu where the
 *  platform has one, false clears a menu left by an earlier start. */
export interface ChannelCommandMenu {
  native: boolean | "auto";
  commands: readonly ChannelMenuCommand[];
}

/** One HTTP request to a channel webhook, its body read in full (within the route's cap). */
export interface ChannelWebhookRequest {
  method: string;
  /** The request path as sent (not decoded): the route's exact path. */
  path: string;
  query: URLSearchParams;
  /** Header names lower-cased, as node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body bytes: signatures are computed over exactly these. */
  body: Buffer;
}

/** What a webhook handler answers; the body is sent as plain text. */
export interface ChannelWebhookResponse {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** A webhook an account serves on the gateway's HTTP port: one exact path, outside gateway auth
 *  (the platform must reach it), so the handler itself verifies every request. */
export interface ChannelWebhookRoute {
  /** Exact path (`/webhooks/whatsapp/biz`): letters, digits and `/_.~-`, at most 256 characters. */
  path: string;
  methods: ReadonlyArray<"GET" | "POST">;
  /** Longest body accepted (default 1 MiB); a longer one is refused with 413 before the handler. */
  maxBodyBytes?: number;
  handle(request: ChannelWebhookRequest): Promise<ChannelWebhookResponse>;
}

/** A registered webhook (`unregister` is idempotent), or why the path was refused. */
export type ChannelWebhookRegistration =
  | { ok: true; path: string; unregister(): void }
  | { ok: false; error: string };

/** Where the host registers webhooks: the gateway's table (`src/gateway/http/webhook-routes.ts`). */
export interface ChannelWebhookServer {
  register(route: ChannelWebhookRoute, owner: string): ChannelWebhookRegistration;
}

/** What the platform said later about a message this account sent (a receipt callback). */
export interface ChannelDeliveryUpdate {
  /** The platform message id the send returned (`SendReceipt.messageId`). */
  messageId: string;
  peer: ChannelPeer;
  status: "sent" | "delivered" | "read" | "failed";
  /** For `failed`: the platform's reason, and its error code when it gave one. */
  error?: { message: string; code?: string };
}

/** What the host gives an account when it starts it. */
export interface ChannelAccountContext {
  channel: string;
  accountId: string;
  config: ChannelAccountConfig;
  /** `<stateDir>`: adapters keep their own state under `<stateDir>/channels/<channel>/<accountId>/`. */
  stateDir: string;
  env: Record<string, string | undefined>;
  log: Logger;
  /** Hands one inbound message to the pipeline. Resolves once it is durably accepted (deduped,
   *  queued or refused); an adapter acknowledges / advances its offset only after that. */
  receive(message: ChannelInbound): Promise<void>;
  /** Makes every message `receive` accepted so far durable on disk (fsync of the inbound journal).
   *  An adapter calls it right before it persists a platform offset that stops redelivery, so a
   *  power loss cannot lose a message the platform will not send again. */
  syncInbound(): void;
  /** Reports a status change (connected, errors); merged into the account's status. */
  report(update: Partial<ChannelAccountStatus>): void;
  /** Serves a webhook on the gateway's HTTP port until `unregister` (or the account stops). A path
   *  another account (or the gateway) serves is refused with an error naming it. Absent where no
   *  HTTP port exists (an adapter that needs it fails its start). */
  registerWebhook?(route: ChannelWebhookRoute): ChannelWebhookRegistration;
  /** Hands on a platform's receipt for a sent message: `failed` is recorded like a failed send
   *  (a dead letter in `channels failures`, `delivery.failed`, the account's `lastError`). */
  reportDelivery?(update: ChannelDeliveryUpdate): void;
  signal: AbortSignal;
  /** The command menu to register on start (absent: the gateway answers no commands; leave it). */
  commandMenu?: ChannelCommandMenu;
}

/**
 * How an account's receiving ended: on request (`stop()`, the context's signal), or `failed` when it
 * cannot go on (its loop crashed, the platform refused the credentials or answered garbage, the
 * connection dropped). `retryAfterMs` is the platform's own "wait this long", when it gave one.
 */
export type ChannelAccountEnd =
  | { failed: false }
  | { failed: true; error: string; retryAfterMs?: number };

/** A running account: send, typing, probe, stop. */
export interface ChannelAccountRuntime {
  send(message: OutboundMessage): Promise<SendResult>;
  /** Shows "typing…" in the target conversation, where the platform supports it. */
  sendTyping?(target: OutboundTarget): Promise<void>;
  probe(): Promise<ProbeResult>;
  /** Earlier messages of a thread, oldest first, for a new thread session's context; [] when they
   *  cannot be read (logged). Never throws. */
  threadHistory?(query: ThreadHistoryQuery): Promise<ThreadHistoryMessage[]>;
  /** Stops receiving; resolves when no more `receive` calls will be made. */
  stop(): Promise<void>;
  /**
   * Settles once the account stops receiving; never rejects. On a failure the host stops this
   * runtime and starts the account again with backoff (`account-supervisor.ts`); the old runtime
   * keeps serving sends until then. Without it an account is only restarted when `start` fails.
   */
  ended?: Promise<ChannelAccountEnd>;
}

/**
 * A chat platform. One adapter serves every account of its channel.
 *
 * Robustness contract: every platform update goes through `createUpdateGuard` (`update-guard.ts`):
 * the conversion checks the payload's shape and says what is wrong (`invalid`) instead of throwing;
 * the adapter acknowledges (advances its offset past) every update the guard says to `advance`,
 * skipped malformed ones included, so a restart never meets them again. Nothing an adapter runs in
 * the background may reject unobserved: its loop ends through `ended` instead, and the host's
 * supervisor restarts the account while the other accounts and the gateway carry on.
 */
export interface ChannelAdapter {
  /** Channel name as in config and session keys (`telegram`). */
  id: string;
  label: string;
  capabilities: ChannelCapabilities;
  /**
   * Account ids configured for this channel, from `channels.<id>` (the `accounts` map, or `default`
   * when credentials sit at the channel level). Pure.
   */
  listAccounts(channelConfig: Record<string, unknown>): string[];
  /** Checks an account's credentials are present; returns a clear error naming what is missing. */
  validateAccount(
    config: ChannelAccountConfig,
    env: Record<string, string | undefined>,
  ): string | undefined;
  start(context: ChannelAccountContext): Promise<ChannelAccountRuntime>;
  /** Linking an account interactively (WhatsApp's QR), for channels without a token to configure. */
  login?: ChannelLogin;
}
