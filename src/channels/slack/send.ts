// Sending one outbound message on Slack: the target conversation (a channel id as is; a user's DM
// through `conversations.open`, remembered), the thread (`thread_ts`: the message's own thread, or
// under the message it answers when `replyToMode` is first/all), the Markdown as mrkdwn through
// `chat.postMessage`, and each attachment through Slack's upload flow (`files.getUploadURLExternal`,
// the bytes to the upload URL, `files.completeUploadExternal` into the conversation). Every failure
// is a value (`send-failure.ts`). A message with `editMessageId` (a streamed reply preview) is
// `chat.update` of that message instead.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { OutboundMedia, OutboundMessage, SendResult } from "../index.js";
import { markdownToMrkdwn } from "./mrkdwn.js";
import { toSlackSendFailure } from "./send-failure.js";
import type { SlackAccountSettings } from "./settings.js";

/** The Web API calls sends need (Bolt's `WebClient` has them). */
export interface SlackWebApi {
  apiCall(method: string, options?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** DM channel ids by user id: filled by inbound DMs and `conversations.open`. */
export type SlackDmChannels = Map<string, string>;

/** Inputs of {@link sendSlackMessage}. */
export interface SlackSendParams {
  api: SlackWebApi;
  settings: SlackAccountSettings;
  message: OutboundMessage;
  dmChannels: SlackDmChannels;
}

class MediaError extends Error {}

async function conversationOf(params: SlackSendParams): Promise<string> {
  const { peer } = params.message.target;
  if (peer.kind !== "direct" || /^D[A-Z0-9]+$/.test(peer.id)) return peer.id;
  const known = params.dmChannels.get(peer.id);
  if (known) return known;
  const opened = await params.api.apiCall("conversations.open", { users: peer.id });
  const id = (opened.channel as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string") throw new Error("conversations.open answered without a channel id");
  params.dmChannels.set(peer.id, id);
  return id;
}

async function mediaBytes(media: OutboundMedia, maxBytes: number): Promise<Buffer> {
  if (media.path) {
    const data = await readFile(media.path).catch((err: Error) => {
      throw new MediaError(`cannot read ${media.path}: ${err.message}`);
    });
    if (data.length > maxBytes) throw new MediaError(`${media.path} is over mediaMaxMb`);
    return data;
  }
  if (!media.url) throw new MediaError("an attachment has neither path nor url");
  const res = await fetch(media.url).catch((err: Error) => {
    throw new MediaError(`cannot fetch ${media.url}: ${err.message}`);
  });
  if (!res.ok) throw new MediaError(`fetching ${media.url} answered HTTP ${res.status}`);
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length > maxBytes) throw new MediaError(`${media.url} is over mediaMaxMb`);
  return data;
}

function fileNameOf(media: OutboundMedia): string {
  if (media.fileName) return media.fileName;
  const source = media.path ?? new URL(media.url ?? "file:///file").pathname;
  return basename(source) || "file";
}

async function uploadFile(params: {
  api: SlackWebApi;
  media: OutboundMedia;
  channel: string;
  threadTs?: string;
  maxBytes: number;
}): Promise<string> {
  const data = await mediaBytes(params.media, params.maxBytes);
  const filename = fileNameOf(params.media);
  const slot = await params.api.apiCall("files.getUploadURLExternal", {
    filename,
    length: data.length,
  });
  const uploadUrl = slot.upload_url;
  const fileId = slot.file_id;
  if (typeof uploadUrl !== "string" || typeof fileId !== "string")
    throw new Error("files.getUploadURLExternal answered without upload_url / file_id");
  const put = await fetch(uploadUrl, { method: "POST", body: data });
  if (!put.ok) throw new Error(`the file upload answered HTTP ${put.status}`);
  await params.api.apiCall("files.completeUploadExternal", {
    files: [{ id: fileId, title: filename }],
    channel_id: params.channel,
    ...(params.threadTs ? { thread_ts: params.threadTs } : {}),
    ...(params.media.caption ? { initial_comment: markdownToMrkdwn(params.media.caption) } : {}),
  });
  return fileId;
}

/** Sends one message; never throws. */
export async function sendSlackMessage(params: SlackSendParams): Promise<SendResult> {
  const { message, settings, api } = params;
  const { target } = message;
  const threadTs =
    target.threadId ?? (settings.replyToMode !== "off" ? target.replyToId : undefined);
  try {
    const channel = await conversationOf(params);
    if (message.editMessageId !== undefined) {
      // A streamed preview becoming the reply (or growing): its text replaced in place.
      const text = message.text?.trim() ? markdownToMrkdwn(message.text) : "";
      if (!text)
        return { ok: false, failure: { message: "slack: an edit needs text", retryable: false } };
      await api.apiCall("chat.update", { channel, ts: message.editMessageId, text });
      return { ok: true, receipt: { messageId: message.editMessageId } };
    }
    let last: string | undefined;
    for (const media of message.media ?? []) {
      last = await uploadFile({ api, media, channel, threadTs, maxBytes: settings.mediaMaxBytes });
    }
    const text = message.text?.trim() ? markdownToMrkdwn(message.text) : "";
    if (text) {
      const posted = await api.apiCall("chat.postMessage", {
        channel,
        text,
        mrkdwn: true,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      });
      if (typeof posted.ts === "string") last = posted.ts;
    }
    if (last === undefined)
      return { ok: false, failure: { message: "slack: nothing to send", retryable: false } };
    return { ok: true, receipt: { messageId: last } };
  } catch (err) {
    if (err instanceof MediaError)
      return {
        ok: false,
        failure: { message: `slack: ${err.message}`, retryable: false, code: "media" },
      };
    return { ok: false, failure: toSlackSendFailure(err) };
  }
}
