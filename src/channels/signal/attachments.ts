// Inbound attachments of a Signal message: images within the media cap are fetched from the daemon
// (`getAttachment`, base64) into `data` so the model sees them; other kinds, larger images, or all
// of them under `ignoreAttachments`, stay listed by id. A download that fails is logged and the
// attachment kept without its bytes: one attachment never costs the message.
import type { ChannelInbound, InboundMedia, Logger } from "../index.js";
import type { SignalRpc } from "./rpc.js";
import type { SignalAccountSettings } from "./settings.js";

/** Inputs of {@link downloadSignalAttachments}. */
export interface DownloadSignalAttachmentsParams {
  inbound: ChannelInbound;
  rpc: SignalRpc;
  settings: Pick<SignalAccountSettings, "ignoreAttachments" | "mediaMaxBytes">;
  log: Logger;
  signal: AbortSignal;
}

/** The message's media, images downloaded where allowed. */
export async function downloadSignalAttachments(
  params: DownloadSignalAttachmentsParams,
): Promise<InboundMedia[]> {
  const { inbound, settings } = params;
  if (settings.ignoreAttachments) return inbound.media;
  const where =
    inbound.peer.kind === "group" ? { groupId: inbound.peer.id } : { recipient: inbound.sender.id };
  const out: InboundMedia[] = [];
  for (const media of inbound.media) {
    const small = media.size === undefined || media.size <= settings.mediaMaxBytes;
    if (media.kind !== "image" || !media.fileId || !small) {
      out.push(media);
      continue;
    }
    const result = await params.rpc.call({
      method: "getAttachment",
      params: { id: media.fileId, ...where },
      signal: params.signal,
    });
    const data = result.ok ? (result.result as { data?: unknown } | undefined)?.data : undefined;
    if (typeof data === "string" && Buffer.byteLength(data, "base64") <= settings.mediaMaxBytes) {
      out.push({ ...media, data });
      continue;
    }
    params.log.warn(
      {
        fileId: media.fileId,
        error: result.ok ? "no base64 data or over the media cap" : result.failure.message,
      },
      "signal: attachment not downloaded",
    );
    out.push(media);
  }
  return out;
}
