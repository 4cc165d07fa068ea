// The earlier messages of a Slack thread, for a new thread session's context
// (`thread.initialHistoryLimit`): `conversations.replies` of the thread (its root included), pages of
// 200 (at most 3), only messages before the one that starts the session, the newest `limit` kept,
// oldest first. A message with neither text nor files is left out; files-only reads
// `[attached: name, …]`. Senders by their profile name, else their id; this bot's own posts as
// `assistant`, other bots' marked `(bot)`. A failed call is logged and ends the reading (what was
// read so far is kept): the thread then starts with less context, never with an error. The reading
// is bounded in time: Slack's acknowledgement of the event waits for it (the message is journaled
// and handed on first), and Slack wants that within 3 s.
import type { Logger, ThreadHistoryMessage, ThreadHistoryQuery } from "../index.js";
import { type SlackSelf, slackTextToPlain } from "./inbound.js";
import type { SlackDmChannels, SlackWebApi } from "./send.js";

/** Messages per `conversations.replies` page (Slack's recommended maximum). */
const PAGE_SIZE = 200;
/** Pages read at most: a longer thread gives its first 600 messages' newest `limit`. */
const MAX_PAGES = 3;

/** How long a new thread session waits for its history before going on with what was read. */
export const THREAD_HISTORY_WAIT_MS = 2000;

type Loose = Record<string, unknown>;

/** What reading a thread needs. */
export interface SlackThreadHistoryParams {
  api: SlackWebApi;
  self: SlackSelf;
  dmChannels: SlackDmChannels;
  log: Logger;
  query: ThreadHistoryQuery;
  /** The time bound (default {@link THREAD_HISTORY_WAIT_MS}). */
  waitMs?: number;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Slack timestamps (`<seconds>.<micros>`) compared exactly (a double would round them). */
export function slackTsBefore(a: string, b: string): boolean {
  const scaled = (ts: string) => {
    const [whole = "0", fraction = ""] = ts.split(".");
    return BigInt(`${whole}${fraction.padEnd(6, "0").slice(0, 6)}`);
  };
  return scaled(a) < scaled(b);
}

function senderOf(message: Loose, self: SlackSelf): string {
  const user = str(message.user);
  const botId = str(message.bot_id);
  if ((user && user === self.userId) || (botId && botId === self.botId)) return "assistant";
  const profile = (message.user_profile ?? {}) as Loose;
  const name =
    str(profile.display_name) ?? str(profile.real_name) ?? str(message.username) ?? user ?? botId;
  const label = name ?? "unknown";
  return botId ? `${label} (bot)` : label;
}

function bodyOf(message: Loose): string | undefined {
  const text = typeof message.text === "string" ? slackTextToPlain(message.text).trim() : "";
  if (text) return text;
  const files = Array.isArray(message.files) ? (message.files as Loose[]) : [];
  if (files.length === 0) return undefined;
  return `[attached: ${files.map((file) => str(file.name) ?? "file").join(", ")}]`;
}

function conversationOf(params: SlackThreadHistoryParams): string | undefined {
  const { peer } = params.query;
  if (peer.kind !== "direct" || /^D[A-Z0-9]+$/.test(peer.id)) return peer.id;
  return params.dmChannels.get(peer.id);
}

/** Reads a thread's earlier messages; never throws. */
export async function readSlackThreadHistory(
  params: SlackThreadHistoryParams,
): Promise<ThreadHistoryMessage[]> {
  const { query, log } = params;
  const channel = conversationOf(params);
  if (!channel || query.limit <= 0) return [];
  const kept: ThreadHistoryMessage[] = [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), params.waitMs ?? THREAD_HISTORY_WAIT_MS);
  });
  const reading = { stopped: false };
  const done = await Promise.race([readPages({ params, channel, kept, reading }), late]);
  clearTimeout(timer);
  reading.stopped = true;
  if (done === "late")
    log.warn(
      { channel, threadTs: query.threadId, read: kept.length },
      "slack: conversations.replies is slow; the thread session starts with what was read",
    );
  return [...kept].sort((a, b) => a.timestamp - b.timestamp).slice(-query.limit);
}

/** Reads up to {@link MAX_PAGES} pages into `kept` (none more once `stopped`); a failure is
 *  logged and ends the reading. */
async function readPages(args: {
  params: SlackThreadHistoryParams;
  channel: string;
  kept: ThreadHistoryMessage[];
  reading: { stopped: boolean };
}): Promise<"read"> {
  const { params, channel, kept, reading } = args;
  const { query, log } = params;
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES && !reading.stopped; page += 1) {
      const answer = await params.api.apiCall("conversations.replies", {
        channel,
        ts: query.threadId,
        latest: query.beforeMessageId,
        inclusive: false,
        limit: PAGE_SIZE,
        ...(cursor ? { cursor } : {}),
      });
      const messages = Array.isArray(answer.messages) ? (answer.messages as Loose[]) : [];
      for (const message of messages) {
        const ts = str(message.ts);
        const body = bodyOf(message);
        if (!ts || !/^\d+(\.\d+)?$/.test(ts) || !body) continue;
        if (!slackTsBefore(ts, query.beforeMessageId)) continue;
        kept.push({
          sender: senderOf(message, params.self),
          body,
          timestamp: Math.round(Number(ts) * 1000),
        });
      }
      const meta = (answer.response_metadata ?? {}) as Loose;
      cursor = str(meta.next_cursor);
      if (!cursor) break;
    }
  } catch (err) {
    log.warn(
      {
        channel,
        threadTs: query.threadId,
        error: err instanceof Error ? err.message : String(err),
      },
      "slack: conversations.replies failed; the thread session starts with what was read",
    );
  }
  return "read";
}
