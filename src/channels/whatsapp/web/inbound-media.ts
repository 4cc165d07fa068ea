// Downloads inbound images so the model can see them (as Telegram does): each image under the inline
// cap is fetched and decrypted through the socket (Baileys' downloadMediaMessage) and inlined as
// base64. A failed download leaves the entry's fileId in place and is logged; it never blocks the
// message. Other media keep their fileId (the message id) for a later download.
import type { InboundMedia, Logger } from "../../index.js";
import type { WAMessage, WhatsAppSocket } from "./socket-seam.js";

/** Inputs for {@link inlineInboundImages}. */
export interface InlineInboundImagesParams {
  media: InboundMedia[];
  message: WAMessage;
  socket: WhatsAppSocket;
  maxBytes: number;
  log: Logger;
}

/** Returns `media` with every image under the cap carrying its bytes in `data`. */
export async function inlineInboundImages(
  params: InlineInboundImagesParams,
): Promise<InboundMedia[]> {
  const out: InboundMedia[] = [];
  for (const entry of params.media) {
    if (entry.kind !== "image" || (entry.size !== undefined && entry.size > params.maxBytes)) {
      out.push(entry);
      continue;
    }
    try {
      const bytes = await params.socket.downloadMedia(params.message);
      if (bytes.length > params.maxBytes)
        throw new Error(`image is ${bytes.length} bytes, over the cap`);
      out.push({ ...entry, size: bytes.length, data: bytes.toString("base64") });
    } catch (err) {
      params.log.warn(
        { fileId: entry.fileId, error: (err as Error).message },
        "whatsapp: image download failed; passing the file id only",
      );
      out.push(entry);
    }
  }
  return out;
}
