// What Slack says about a conversation (`conversations.info`): its name, for rules keyed by channel
// name, and its kind (an `app_mention` carries no `channel_type`, and a `G…` id may be a private
// channel or a group DM). Cached per account (bounded); a lookup that fails is logged and leaves
// the name unknown, never the message.
import type { Logger, PeerKind } from "../index.js";
import type { SlackWebApi } from "./send.js";

/** Names and kinds remembered per account. */
const MAX_CACHED = 2000;

/** One conversation as far as inbound rules need it. */
export interface SlackConversationInfo {
  name?: string;
  kind?: PeerKind;
}

/** Looks conversations up once each. */
export interface SlackConversations {
  lookup(channelId: string): Promise<SlackConversationInfo>;
}

/** The cache of one account. */
export function createSlackConversations(params: {
  api: SlackWebApi;
  log: Logger;
}): SlackConversations {
  const cache = new Map<string, SlackConversationInfo>();
  return {
    async lookup(channelId) {
      const known = cache.get(channelId);
      if (known) return known;
      try {
        const answer = await params.api.apiCall("conversations.info", { channel: channelId });
        const channel = (answer.channel ?? {}) as Record<string, unknown>;
        const kind: PeerKind | undefined =
          channel.is_im === true ? "direct" : channel.is_mpim === true ? "group" : "channel";
        const info: SlackConversationInfo = {
          ...(typeof channel.name === "string" && channel.name ? { name: channel.name } : {}),
          kind,
        };
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
        cache.set(channelId, info);
        return info;
      } catch (err) {
        params.log.debug(
          { channelId, error: err instanceof Error ? err.message : String(err) },
          "slack: conversations.info failed; channel name unknown",
        );
        return {};
      }
    },
  };
}

/** A channel name as rules key it: lowercase, no leading `#`, spaces as `-`. */
export function slackSlug(name: string): string {
  return name.trim().replace(/^#/, "").toLowerCase().replace(/\s+/g, "-");
}
