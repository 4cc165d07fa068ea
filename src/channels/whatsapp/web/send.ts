// Outbound messages through the socket: the target peer id (E.164 or a JID) → a JID, text rendered
// to WhatsApp markup (`markdownToWhatsApp`) and cut to the chunk limit, each attachment as image /
// video / audio / document (by URL, or a local absolute path Baileys streams) with its caption, the
// first part quoting `replyToId` when that message is still in the recent-message cache. Failures
// come back as values: a target that is no number or JID, a missing file or a closed connection
// (certainly not sent, retryable) and an error once the message may have left (uncertain).
import { stat } from "node:fs/promises";
import { basename, extname, isAbsolute } from "node:path";
import type { OutboundMedia, OutboundMessage, SendFailure, SendResult } from "../../index.js";
import { splitMarkdownToFit } from "../../telegram/text-split.js";
import { markdownToWhatsApp } from "../format.js";
import { peerIdToJid } from "../peer-id.js";
import type { AnyMessageContent, WAMessage, WhatsAppSocket } from "./socket-seam.js";
import { disconnectCode, WA_DISCONNECT } from "./socket-seam.js";

/** Longest text of one message sent here (WhatsApp accepts more; long ones get cut on phones). */
export const WHATSAPP_WEB_TEXT_LIMIT = 4096;

const MIME_BY_EXTENSION: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
  ".mp4": "video/mp4",
  ".mov": "video/quicktime",
  ".3gp": "video/3gpp",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg; codecs=opus",
  ".opus": "audio/ogg; codecs=opus",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".wav": "audio/wav",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
  ".zip": "application/zip",
};

/** Inputs for {@link sendWebMessage}. */
export interface SendWebMessageParams {
  /** The open socket, or why there is none (then nothing is sent). */
  socket: WhatsAppSocket | { unavailable: SendFailure };
  message: OutboundMessage;
  /** The original of `replyToId`, when still known. */
  quoted: (id: string) => WAMessage | undefined;
  /** Records the ids of sent messages (self-chat echoes are skipped). */
  onSent: (id: string) => void;
  textLimit: number;
  mediaMaxBytes: number;
}

type Part = { content: AnyMessageContent } | { failure: SendFailure };

function mediaName(media: OutboundMedia): string {
  if (media.fileName) return media.fileName;
  if (media.path) return basename(media.path);
  try {
    return basename(new URL(media.url ?? "").pathname) || "file";
  } catch {
    return "file";
  }
}

function mediaKind(media: OutboundMedia, mimeType: string): OutboundMedia["kind"] {
  if (media.kind) return media.kind;
  if (mimeType.startsWith("image/") && !mimeType.includes("gif")) return "image";
  if (mimeType.startsWith("video/")) return "video";
  if (mimeType.startsWith("audio/")) return "audio";
  return "document";
}

async function mediaPart(media: OutboundMedia, maxBytes: number): Promise<Part> {
  const bad = (message: string): Part => ({
    failure: { message, retryable: false, code: "bad_media" },
  });
  let url: string;
  if (media.url) url = media.url;
  else if (media.path) {
    // Paths arrive resolved by the media policy; a relative one would read from the process cwd.
    if (!isAbsolute(media.path)) return bad(`media ${media.path}: not an absolute path`);
    try {
      const info = await stat(media.path);
      if (!info.isFile()) return bad(`media ${media.path}: not a regular file`);
      if (info.size > maxBytes)
        return bad(`media ${media.path}: ${info.size} bytes, over mediaMaxMb`);
    } catch (err) {
      return bad(`media ${media.path}: ${(err as Error).message}`);
    }
    url = media.path;
  } else return bad("media has neither url nor path");
  const fileName = mediaName(media);
  const mimetype = MIME_BY_EXTENSION[extname(fileName).toLowerCase()] ?? "application/octet-stream";
  const caption = media.caption ? markdownToWhatsApp(media.caption) : undefined;
  const upload = { url };
  switch (mediaKind(media, mimetype)) {
    case "image":
      return { content: { image: upload, ...(caption ? { caption } : {}) } };
    case "video":
      return { content: { video: upload, mimetype, ...(caption ? { caption } : {}) } };
    case "audio":
    case "voice":
      return { content: { audio: upload, mimetype, ptt: media.kind === "voice" } };
    case "sticker":
      return { content: { sticker: upload } };
    default:
      return { content: { document: upload, mimetype, fileName, ...(caption ? { caption } : {}) } };
  }
}

/** A thrown send error as a failure: a closed connection certainly sent nothing; anything else
 *  may have left the device, so it is uncertain and never retried. */
export function sendErrorToFailure(err: unknown): SendFailure {
  const message = err instanceof Error ? err.message : String(err);
  const code = disconnectCode({ lastDisconnect: { error: err as Error, date: new Date() } });
  if (code === WA_DISCONNECT.connectionClosed || /connection closed/i.test(message)) {
    return { message: `whatsapp: ${message}`, retryable: true, code: "not_connected" };
  }
  return { message: `whatsapp: ${message}`, retryable: false, uncertain: true, code: "send_error" };
}

/** Sends one outbound message; never throws for platform errors. */
export async function sendWebMessage(params: SendWebMessageParams): Promise<SendResult> {
  const { message } = params;
  const target = peerIdToJid(message.target.peer.id);
  if (!target.ok) {
    return { ok: false, failure: { message: target.error, retryable: false, code: "bad_target" } };
  }
  const parts: Part[] = [];
  if (message.text?.trim()) {
    const pieces = splitMarkdownToFit({
      markdown: message.text,
      limit: params.textLimit,
      render: markdownToWhatsApp,
    });
    for (const piece of pieces) {
      // A piece cut at a space keeps it at its end: trailing blanks are not worth sending.
      const text = markdownToWhatsApp(piece).trimEnd();
      if (text) parts.push({ content: { text } });
    }
  }
  for (const media of message.media ?? []) parts.push(await mediaPart(media, params.mediaMaxBytes));
  if (parts.length === 0) {
    return { ok: false, failure: { message: "nothing to send", retryable: false, code: "empty" } };
  }
  if ("unavailable" in params.socket) return { ok: false, failure: params.socket.unavailable };
  const socket = params.socket;
  const quoted = message.target.replyToId ? params.quoted(message.target.replyToId) : undefined;
  let sent = 0;
  let lastId: string | undefined;
  for (const part of parts) {
    let failure: SendFailure | undefined;
    if ("failure" in part) failure = part.failure;
    else {
      try {
        const result = await socket.sendMessage(
          target.jid,
          part.content,
          sent === 0 && quoted ? { quoted } : undefined,
        );
        lastId = result?.key?.id ?? undefined;
        if (lastId) params.onSent(lastId);
      } catch (err) {
        failure = sendErrorToFailure(err);
      }
    }
    if (failure) {
      if (sent === 0) return { ok: false, failure };
      // Part of the message is out: a retry would repeat it, so the failure is final.
      return {
        ok: false,
        failure: {
          ...failure,
          retryable: false,
          message: `${sent} of ${parts.length} parts sent; ${failure.message}`,
        },
      };
    }
    sent += 1;
  }
  return { ok: true, receipt: { messageId: lastId ?? "" } };
}
