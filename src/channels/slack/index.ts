// The Slack channel adapter (Bolt): one app per account, Socket Mode (the default) or the Events
// API on the gateway's HTTP port (`mode: "http"`), Markdown rendered as mrkdwn on the way out,
// replies in the thread they came from. Bolt is imported only when an account starts.
import { type ChannelAdapter, defaultAccountIds } from "../index.js";
import { validateSlackAccount } from "./settings.js";

/** Slack's own limit is 40,000 characters per message; OpenClaw chunks at 4000 (`textChunkLimit`). */
export const SLACK_TEXT_LIMIT = 4000;

/** The Slack adapter. */
export function createSlackAdapter(): ChannelAdapter {
  return {
    id: "slack",
    label: "Slack",
    capabilities: {
      maxTextLength: SLACK_TEXT_LIMIT,
      markdown: "mrkdwn",
      typing: false,
      threads: true,
      media: true,
      nativeMentions: true,
      edits: true,
    },
    listAccounts: (channelConfig) => defaultAccountIds(channelConfig),
    validateAccount: validateSlackAccount,
    async start(context) {
      const { startSlackAccount } = await import("./start.js");
      return startSlackAccount(context);
    },
  };
}
