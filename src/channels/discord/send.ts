// Outbound messages as Discord REST calls: the text split to Discord's 2000 characters on paragraph
// and code-fence boundaries (Discord renders Markdown itself), the first piece quoting `replyToId` as
// a message reference; local files uploaded as multipart attachments, URLs sent as links (Discord
// shows their preview). A direct target (a user id) goes to the DM channel `POST /users/@me/channels`
// opens (remembered per account). Failures come back as values; typing is best effort.
import { readFile, stat } from "node:fs/promises";
import { basename, isAbsolute } from "node:path";
import type {
  Logger,
  OutboundMedia,
  OutboundMessage,
  OutboundTarget,
  SendFailure,
  SendResult,
} from "../index.js";
import { splitMarkdownToFit } from "../telegram/text-split.js";
import { toDiscordSendFailure } from "./send-failure.js";

/** Discord's longest message content. */
export const DISCORD_TEXT_LIMIT = 2000;

/** Largest file uploaded (Discord's default limit for bots is 10 MiB; bigger ones are refused here). */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** A file part of a multipart request, as discord.js's REST client takes it. */
export interface DiscordRestFile {
  name: string;
  data: Buffer;
}

/** The part of discord.js's REST client the adapter uses (routes below `/api/v10`). */
export interface DiscordRest {
  get(route: `/${string}`): Promise<unknown>;
  post(
    route: `/${string}`,
    options?: { body?: unknown; files?: DiscordRestFile[] },
  ): Promise<unknown>;
  patch(route: `/${string}`, options?: { body?: unknown }): Promise<unknown>;
}

/** User id → DM channel id, learned from inbound DMs and from opening DM channels. */
export type DmChannelCache = Map<string, string>;

/** Inputs for {@link sendDiscordMessage}. */
export interface SendDiscordParams {
  rest: DiscordRest;
  message: OutboundMessage;
  dmChannels: DmChannelCache;
  apiRoot: string;
  log: Logger;
}

type Step = (reference: boolean) => Promise<unknown>;

function idOf(result: unknown): string | undefined {
  const id = (result as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : undefined;
}

/** The channel a target's messages go to: a thread, a channel, or the user's DM channel. */
export async function discordChannelFor(params: {
  rest: DiscordRest;
  target: OutboundTarget;
  dmChannels: DmChannelCache;
}): Promise<string> {
  const { target, dmChannels } = params;
  if (target.threadId) return target.threadId;
  if (target.peer.kind !== "direct") return target.peer.id;
  const known = dmChannels.get(target.peer.id);
  if (known) return known;
  const opened = await params.rest.post("/users/@me/channels", {
    body: { recipient_id: target.peer.id },
  });
  const channelId = idOf(opened);
  if (!channelId) throw new Error("opening the DM channel answered no channel id");
  dmChannels.set(target.peer.id, channelId);
  return channelId;
}

function bad(message: string): SendFailure {
  return { message, retryable: false, code: "bad_media" };
}

async function uploadOf(media: OutboundMedia): Promise<DiscordRestFile | SendFailure> {
  if (!media.path) return bad("media has neither url nor path");
  // Paths arrive resolved by the media policy; a relative one would read from the process cwd.
  if (!isAbsolute(media.path)) return bad(`media ${media.path}: not an absolute path`);
  try {
    const info = await stat(media.path);
    if (!info.isFile()) return bad(`media ${media.path}: not a regular file`);
    if (info.size > MAX_UPLOAD_BYTES) {
      return bad(`media ${media.path}: ${info.size} bytes, over Discord's 10 MiB upload limit`);
    }
    return { name: media.fileName ?? basename(media.path), data: await readFile(media.path) };
  } catch (err) {
    return bad(`media ${media.path}: ${(err as Error).message}`);
  }
}

function body(content: string, replyToId: string | undefined, reference: boolean) {
  return {
    content,
    // Never @everyone / @here / role pings from a model's text; user mentions stay live.
    allowed_mentions: { parse: ["users"], replied_user: true },
    ...(reference && replyToId
      ? { message_reference: { message_id: replyToId, fail_if_not_exists: false } }
      : {}),
  };
}

async function plan(
  params: SendDiscordParams,
  channelId: string,
): Promise<Array<Step | SendFailure>> {
  const { rest, message } = params;
  const route = `/channels/${channelId}/messages` as const;
  const replyToId = message.target.replyToId;
  const steps: Array<Step | SendFailure> = [];
  const text = message.text?.trim() ? message.text : "";
  if (text) {
    const pieces = splitMarkdownToFit({
      markdown: text,
      limit: DISCORD_TEXT_LIMIT,
      render: (s) => s,
    });
    for (const piece of pieces) {
      const content = piece.trimEnd();
      steps.push((reference) => rest.post(route, { body: body(content, replyToId, reference) }));
    }
  }
  for (const media of message.media ?? []) {
    const caption = media.caption?.slice(0, DISCORD_TEXT_LIMIT - 600) ?? "";
    if (media.url) {
      const content = caption ? `${caption}\n${media.url}` : media.url;
      steps.push((reference) => rest.post(route, { body: body(content, replyToId, reference) }));
      continue;
    }
    const file = await uploadOf(media);
    if (!("data" in file)) {
      steps.push(file);
      continue;
    }
    steps.push((reference) =>
      rest.post(route, {
        body: {
          ...body(caption, replyToId, reference),
          attachments: [{ id: 0, filename: file.name }],
        },
        files: [file],
      }),
    );
  }
  return steps;
}

/** Sends one outbound message; never throws for platform errors. */
export async function sendDiscordMessage(params: SendDiscordParams): Promise<SendResult> {
  let channelId: string;
  try {
    channelId = await discordChannelFor({
      rest: params.rest,
      target: params.message.target,
      dmChannels: params.dmChannels,
    });
  } catch (err) {
    return { ok: false, failure: toDiscordSendFailure(err, params.apiRoot) };
  }
  const steps = await plan(params, channelId);
  if (steps.length === 0) {
    return { ok: false, failure: { message: "nothing to send", retryable: false, code: "empty" } };
  }
  let sent = 0;
  let lastId: string | undefined;
  for (const step of steps) {
    let failure: SendFailure | undefined;
    if (typeof step === "function") {
      try {
        lastId = idOf(await step(sent === 0)) ?? lastId;
      } catch (err) {
        failure = toDiscordSendFailure(err, params.apiRoot);
      }
    } else failure = step;
    if (failure) {
      if (sent === 0) return { ok: false, failure };
      // Part of the message is out: a retry would repeat it, so the failure is final.
      const message = `${sent} of ${steps.length} parts sent; ${failure.message}`;
      return { ok: false, failure: { ...failure, retryable: false, message } };
    }
    sent += 1;
  }
  return { ok: true, receipt: { messageId: lastId ?? "" } };
}

/** Shows "typing…" in the target channel or thread; a failure is logged, never thrown. */
export async function sendDiscordTyping(params: {
  rest: DiscordRest;
  target: OutboundTarget;
  dmChannels: DmChannelCache;
  log: Logger;
}): Promise<void> {
  try {
    const channelId = await discordChannelFor(params);
    await params.rest.post(`/channels/${channelId}/typing`);
  } catch (err) {
    params.log.warn(
      { peer: params.target.peer.id, error: (err as Error).message },
      "discord: typing failed",
    );
  }
}
