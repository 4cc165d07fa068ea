// The events of one Slack account, whichever way they arrive (Socket Mode envelopes or signed HTTP
// posts): each `events_api` body goes through Bolt (`app.processEvent`: its authorize step and
// `ignoreSelf`) to this account's `message` / `app_mention` listeners, which run it through the
// update guard into `context.receive`. `take` resolves once that is done, with whether the carrier
// may acknowledge it (`ack`) or must leave it for Slack to deliver again (`retry`). An event id
// already taken is acknowledged at once (Slack's retries); group DMs are dropped here unless
// `dm.groupEnabled` (and listed in `dm.groupChannels` when set), with the reason logged.
import {
  type ChannelAccountContext,
  type ChannelInbound,
  type ImageRequestHeaders,
  inlineImageUrls,
  type UpdateConversion,
  type UpdateGuard,
  type UpdateVerdict,
} from "../index.js";
import { type SlackConversations, slackSlug } from "./conversations.js";
import { type SlackSelf, toSlackInbound } from "./inbound.js";
import type { SlackDmChannels } from "./send.js";
import type { SlackAccountSettings } from "./settings.js";

/** Event ids remembered as taken (Slack retries within minutes; this is plenty). */
const MAX_SEEN = 5000;

type Loose = Record<string, unknown>;

/** The part of Bolt's `App` the events use. */
export interface BoltAppSeam {
  event(name: string, listener: (args: { event: unknown; body: unknown }) => Promise<void>): void;
  processEvent(event: { body: Loose; ack: () => Promise<void>; retryNum?: number }): Promise<void>;
}

/** What the events need. */
export interface SlackEventsParams {
  context: ChannelAccountContext;
  settings: SlackAccountSettings;
  self: SlackSelf;
  conversations: SlackConversations;
  dmChannels: SlackDmChannels;
  guard: UpdateGuard;
}

/** The account's event intake. */
export interface SlackEvents {
  /** Registers the listeners on the app (once). */
  listen(app: BoltAppSeam): void;
  /** Takes one envelope payload; `ack` when the carrier may acknowledge it. */
  take(body: unknown, retryNum?: number): Promise<"ack" | "retry">;
}

function groupDmRefusal(
  settings: SlackAccountSettings,
  inbound: ChannelInbound,
): string | undefined {
  if (inbound.peer.kind !== "group") return undefined;
  if (!settings.groupDmEnabled) return "group DM dropped: dm.groupEnabled is not true";
  const listed = settings.groupDmChannels;
  if (!listed) return undefined;
  const slug = inbound.peerName ? slackSlug(inbound.peerName) : undefined;
  const hit = listed.some(
    (entry) => entry === inbound.peer.id || (slug !== undefined && slackSlug(entry) === slug),
  );
  return hit ? undefined : "group DM dropped: not in dm.groupChannels";
}

async function convert(
  params: SlackEventsParams,
  event: unknown,
  teamId: string | undefined,
): Promise<UpdateConversion> {
  const { settings, context } = params;
  const raw = (event ?? {}) as Loose;
  const channelId = typeof raw.channel === "string" ? raw.channel : undefined;
  const needsInfo = channelId !== undefined && raw.channel_type !== "im";
  const info = needsInfo ? await params.conversations.lookup(channelId) : {};
  const channelType = raw.channel_type ?? (info.kind === "group" ? "mpim" : undefined);
  const conversion = toSlackInbound({
    event: { ...raw, ...(channelType ? { channel_type: channelType } : {}) },
    ...(teamId ? { teamId } : {}),
    accountId: context.accountId,
    self: params.self,
    allowBots: settings.allowBots,
    ...(info.name ? { channelName: info.name } : {}),
    thread: settings.thread,
  });
  if (conversion.kind !== "inbound") {
    if (conversion.kind === "ignored")
      context.log.debug(
        { type: raw.type, subtype: raw.subtype, channel: channelId, ts: raw.ts },
        "slack: event ignored (not a user's message for this bot)",
      );
    return conversion;
  }
  const { inbound } = conversion;
  const refusal = groupDmRefusal(settings, inbound);
  if (refusal) {
    context.log.info({ channel: inbound.peer.id, sender: inbound.sender.id }, `slack: ${refusal}`);
    return { kind: "ignored" };
  }
  if (inbound.peer.kind === "direct" && channelId)
    params.dmChannels.set(inbound.peer.id, channelId);
  if (inbound.media.length > 0)
    inbound.media = await inlineImageUrls({
      media: inbound.media,
      maxBytes: settings.mediaMaxBytes,
      timeoutMs: Math.min(IMAGE_DEADLINE_MS, settings.timeoutMs),
      signal: context.signal,
      log: context.log,
      channel: "slack",
      headers: slackFileHeaders(settings),
    });
  return conversion;
}

/** Slack's file host; url_private needs the bot token (scope files:read). */
const SLACK_FILES_HOST = "files.slack.com";

/** Image downloads share this deadline: the event's ack waits for them and Slack wants it in 3 s. */
const IMAGE_DEADLINE_MS = 2_000;

/** The bot token goes only to Slack's file host or the configured `apiUrl`'s host (a proxy, a fake). */
function slackFileHeaders(settings: SlackAccountSettings): ImageRequestHeaders {
  const apiHost = new URL(settings.apiUrl).host;
  return (url) =>
    url.host === SLACK_FILES_HOST || url.host === apiHost
      ? { authorization: `Bearer ${settings.botToken}` }
      : "skip";
}

/** Creates the intake of one account. */
export function createSlackEvents(params: SlackEventsParams): SlackEvents {
  const seen = new Set<string>();
  const verdicts = new WeakMap<object, UpdateVerdict>();
  let app: BoltAppSeam | undefined;
  const onEvent = async ({ event, body }: { event: unknown; body: unknown }) => {
    const envelope = (body ?? {}) as Loose;
    const ev = (event ?? {}) as Loose;
    const id = String(envelope.event_id ?? ev.ts ?? "unknown");
    const teamId = typeof envelope.team_id === "string" ? envelope.team_id : undefined;
    const verdict = await params.guard.handle({
      id,
      update: event,
      convert: (update) => convert(params, update, teamId),
    });
    if (body && typeof body === "object") verdicts.set(body, verdict);
  };
  return {
    listen(target) {
      app = target;
      target.event("message", onEvent);
      target.event("app_mention", onEvent);
    },
    async take(body, retryNum) {
      if (!app || !body || typeof body !== "object") return "ack";
      const payload = body as Loose;
      const eventId = typeof payload.event_id === "string" ? payload.event_id : undefined;
      if (eventId && seen.has(eventId)) {
        params.context.log.debug({ eventId, retryNum }, "slack: event already taken; acknowledged");
        return "ack";
      }
      await app.processEvent({
        body: payload,
        // Bolt acknowledges events before its listeners run; the carrier acknowledges afterwards.
        ack: async () => {},
        ...(retryNum !== undefined ? { retryNum } : {}),
      });
      const verdict = verdicts.get(payload);
      if (verdict && !verdict.advance) return "retry";
      if (eventId) {
        if (seen.size >= MAX_SEEN) seen.delete(seen.values().next().value as string);
        seen.add(eventId);
      }
      params.context.syncInbound();
      return "ack";
    },
  };
}
