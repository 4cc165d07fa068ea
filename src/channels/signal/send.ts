// One outbound message through signal-cli's `send`: to a number or UUID (a DM) or a group id, the
// Markdown rendered to Signal text styles, a reply quoting its message (quoteTimestamp +
// quoteAuthor, from the `<timestamp>:<author>` message id; a DM's bare timestamp quotes the
// partner), attachments as data URIs (local files are read here, URLs fetched, both within the
// media cap), so a daemon on another host gets the bytes. The receipt names the sent message the
// way inbound ids do. Failures are values.
import { readFile, stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import type { OutboundMedia, OutboundMessage, OutboundTarget, SendResult } from "../index.js";
import { parseSignalMessageId } from "./inbound.js";
import type { SignalRpc } from "./rpc.js";
import { markdownToSignal, textStyleParams } from "./text-styles.js";

const MIME_BY_EXTENSION: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".ogg": "audio/ogg",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
  ".zip": "application/zip",
};

/** Inputs of {@link sendSignalMessage}. */
export interface SendSignalParams {
  rpc: SignalRpc;
  message: OutboundMessage;
  /** This account's number, for the receipt's id. */
  self?: string;
  mediaMaxBytes: number;
}

/** `recipient` or `groupId` of a target (a `uuid:` prefix is dropped). */
export function signalDestination(target: Pick<OutboundTarget, "peer">): Record<string, unknown> {
  const id = target.peer.id.replace(/^(signal:)?(group:)?/, "");
  if (target.peer.kind === "group" || /^(signal:)?group:/.test(target.peer.id))
    return { groupId: id };
  return { recipient: [id.replace(/^uuid:/, "")] };
}

function nameOf(media: OutboundMedia): string {
  if (media.fileName) return media.fileName;
  if (media.path) return basename(media.path);
  try {
    return basename(new URL(media.url ?? "").pathname) || "attachment";
  } catch {
    return "attachment";
  }
}

async function bytesOf(media: OutboundMedia, maxBytes: number): Promise<Buffer> {
  if (media.path) {
    const info = await stat(media.path);
    if (info.size > maxBytes) throw new Error(`${info.size} bytes, over the media cap`);
    return readFile(media.path);
  }
  if (!media.url) throw new Error("neither a path nor a URL");
  if (media.url.startsWith("file://"))
    return bytesOf({ path: new URL(media.url).pathname }, maxBytes);
  const res = await fetch(media.url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) throw new Error(`${bytes.length} bytes, over the media cap`);
  return bytes;
}

/** An attachment as an RFC 2397 data URI with signal-cli's `filename=` parameter. */
async function dataUri(media: OutboundMedia, maxBytes: number): Promise<string> {
  const name = nameOf(media);
  const mime = MIME_BY_EXTENSION[extname(name).toLowerCase()] ?? "application/octet-stream";
  const bytes = await bytesOf(media, maxBytes);
  return `data:${mime};filename=${encodeURIComponent(name)};base64,${bytes.toString("base64")}`;
}

function quoteOf(target: OutboundTarget): Record<string, unknown> {
  if (!target.replyToId) return {};
  const parsed = parseSignalMessageId(target.replyToId);
  if (!parsed) return {};
  const author =
    parsed.author ?? (target.peer.kind === "direct" ? target.peer.id.replace(/^uuid:/, "") : "");
  return author ? { quoteTimestamp: parsed.timestamp, quoteAuthor: author } : {};
}

/** Sends one message; never throws. */
export async function sendSignalMessage(params: SendSignalParams): Promise<SendResult> {
  const { message } = params;
  const captions = (message.media ?? []).map((m) => m.caption).filter(Boolean);
  const markdown = message.text ?? captions.join("\n");
  const styled = markdownToSignal(markdown);
  const attachments: string[] = [];
  for (const media of message.media ?? []) {
    try {
      attachments.push(await dataUri(media, params.mediaMaxBytes));
    } catch (err) {
      return {
        ok: false,
        failure: {
          message: `attachment ${nameOf(media)} not sent: ${err instanceof Error ? err.message : String(err)}`,
          retryable: false,
          code: "bad_media",
        },
      };
    }
  }
  if (styled.text === "" && attachments.length === 0)
    return { ok: false, failure: { message: "nothing to send", retryable: false, code: "empty" } };
  const result = await params.rpc.call({
    method: "send",
    params: {
      ...signalDestination(message.target),
      message: styled.text,
      ...(styled.styles.length > 0 ? { textStyle: textStyleParams(styled.styles) } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
      ...quoteOf(message.target),
    },
  });
  if (!result.ok) return result;
  const timestamp = (result.result as { timestamp?: unknown } | undefined)?.timestamp;
  if (typeof timestamp !== "number")
    return {
      ok: false,
      failure: {
        message: "signal-cli's send answered without a timestamp; the message may have been sent",
        retryable: false,
        uncertain: true,
        code: "malformed",
      },
    };
  return { ok: true, receipt: { messageId: `${timestamp}:${params.self ?? "self"}` } };
}
