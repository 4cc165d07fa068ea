// Downloads inbound images so the model can see them: each image attachment's CDN URL (no auth),
// inlined as base64 when under the media cap. A failure leaves the URL in place and is logged; an
// image that cannot be fetched never blocks the message.
import type { InboundMedia, Logger } from "../index.js";

/** Inputs for {@link downloadDiscordImages}. */
export interface DownloadDiscordImagesParams {
  media: InboundMedia[];
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
  log: Logger;
}

async function fetchBytes(url: string, params: DownloadDiscordImagesParams): Promise<Buffer> {
  const signal = AbortSignal.any([params.signal, AbortSignal.timeout(params.timeoutMs)]);
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > params.maxBytes)
    throw new Error(`file is ${bytes.length} bytes, over the media cap`);
  return bytes;
}

/** Returns `media` with every image under the cap carrying its bytes in `data`. */
export async function downloadDiscordImages(
  params: DownloadDiscordImagesParams,
): Promise<InboundMedia[]> {
  const out: InboundMedia[] = [];
  for (const entry of params.media) {
    const tooBig = entry.size !== undefined && entry.size > params.maxBytes;
    if (entry.kind !== "image" || !entry.url || tooBig) {
      out.push(entry);
      continue;
    }
    try {
      const bytes = await fetchBytes(entry.url, params);
      out.push({ ...entry, size: bytes.length, data: bytes.toString("base64") });
    } catch (err) {
      params.log.warn(
        { fileName: entry.fileName, error: (err as Error).message },
        "discord: image download failed; passing its URL only",
      );
      out.push(entry);
    }
  }
  return out;
}
