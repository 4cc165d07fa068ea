// Outbound media for the Cloud API: the message type an attachment goes as (image, video, audio,
// sticker or document, from its kind, MIME or extension), and the upload of a local file
// (`POST /{phoneNumberId}/media`, multipart with `messaging_product` and the file) that gives the
// media id a message then names. Paths arrive resolved and screened by the media policy.
import { readFile, stat } from "node:fs/promises";
import { basename, extname, isAbsolute } from "node:path";
import type { OutboundMedia, SendFailure } from "../../index.js";
import type { GraphClient } from "./graph-client.js";

/** The message types media can be sent as. */
export type CloudMediaType = "image" | "video" | "audio" | "sticker" | "document";

const MIME_BY_EXTENSION: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".3gp": "video/3gpp",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".amr": "audio/amr",
  ".ogg": "audio/ogg",
  ".opus": "audio/ogg",
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".doc": "application/msword",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

function nameOf(media: OutboundMedia): string {
  if (media.fileName) return media.fileName;
  if (media.path) return basename(media.path);
  try {
    return basename(new URL(media.url ?? "").pathname);
  } catch {
    return "";
  }
}

/** MIME type of an attachment by its file extension (octet-stream when unknown). */
export function mimeTypeOf(media: OutboundMedia): string {
  return MIME_BY_EXTENSION[extname(nameOf(media)).toLowerCase()] ?? "application/octet-stream";
}

/** The message type an attachment is sent as. */
export function cloudMediaType(media: OutboundMedia): CloudMediaType {
  if (media.kind === "image" || media.kind === "video" || media.kind === "sticker")
    return media.kind;
  if (media.kind === "audio" || media.kind === "voice") return "audio";
  if (media.kind === "document") return "document";
  const mime = mimeTypeOf(media);
  if (mime === "image/webp") return "sticker";
  if (mime === "image/jpeg" || mime === "image/png") return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "document";
}

const badMedia = (message: string): SendFailure => ({
  message,
  retryable: false,
  code: "bad_media",
});

/** Uploads a local file; its media id, or the failure. */
export async function uploadMedia(params: {
  graph: GraphClient;
  settings: { phoneNumberId: string };
  media: OutboundMedia;
  type: CloudMediaType;
}): Promise<{ ok: true; id: string } | { ok: false; failure: SendFailure }> {
  const { media } = params;
  if (!media.path) return { ok: false, failure: badMedia("media has neither url nor path") };
  if (!isAbsolute(media.path))
    return { ok: false, failure: badMedia(`media ${media.path}: not an absolute path`) };
  let bytes: Buffer;
  try {
    const info = await stat(media.path);
    if (!info.isFile()) throw new Error("not a regular file");
    bytes = await readFile(media.path);
  } catch (err) {
    return { ok: false, failure: badMedia(`media ${media.path}: ${(err as Error).message}`) };
  }
  const mime = mimeTypeOf(media);
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", mime);
  form.set("file", new Blob([new Uint8Array(bytes)], { type: mime }), nameOf(media) || "file");
  const result = await params.graph.call({
    method: "POST",
    path: `${params.settings.phoneNumberId}/media`,
    form,
  });
  if (!result.ok) return result;
  const id = result.body.id;
  if (typeof id !== "string" || id === "")
    return {
      ok: false,
      failure: {
        message: "media upload answered without an id",
        retryable: true,
        code: "upload_no_id",
      },
    };
  return { ok: true, id };
}
