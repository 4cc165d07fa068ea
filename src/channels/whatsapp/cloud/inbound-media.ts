// Downloads inbound images so the model can see them: `GET /{media-id}` gives a short-lived URL and
// the size, then the URL is fetched with the bearer token and inlined as base64 when under the
// media cap. Other media keep their id (and the size Graph reports). A failure leaves the id in
// place and is logged; an image that cannot be fetched never blocks its message.
import type { InboundMedia, Logger } from "../../index.js";
import type { GraphClient } from "./graph-client.js";
import { stringOf } from "./webhook-payload.js";

/** Inputs for {@link downloadCloudImages}. */
export interface DownloadCloudImagesParams {
  media: InboundMedia[];
  graph: GraphClient;
  maxBytes: number;
  signal: AbortSignal;
  log: Logger;
}

async function downloadOne(
  entry: InboundMedia,
  params: DownloadCloudImagesParams,
): Promise<InboundMedia> {
  if (entry.kind !== "image" || !entry.fileId) return entry;
  const { graph, log, maxBytes, signal } = params;
  const info = await graph.call({
    method: "GET",
    path: encodeURIComponent(entry.fileId),
    signal,
  });
  if (!info.ok) {
    log.warn(
      { fileId: entry.fileId, error: info.failure.message },
      "whatsapp cloud: media lookup failed; passing the media id only",
    );
    return entry;
  }
  const url = stringOf(info.body.url);
  const size = Number(info.body.file_size);
  const known = Number.isFinite(size) && size > 0 ? { ...entry, size } : entry;
  if (!url || (known.size !== undefined && known.size > maxBytes)) return known;
  try {
    const bytes = await graph.download(url, { maxBytes, signal });
    return { ...known, size: bytes.length, data: bytes.toString("base64") };
  } catch (err) {
    log.warn(
      { fileId: entry.fileId, error: (err as Error).message },
      "whatsapp cloud: media download failed; passing the media id only",
    );
    return known;
  }
}

/** Returns `media` with every image under the cap carrying its bytes in `data`. */
export async function downloadCloudImages(
  params: DownloadCloudImagesParams,
): Promise<InboundMedia[]> {
  const out: InboundMedia[] = [];
  for (const entry of params.media) out.push(await downloadOne(entry, params));
  return out;
}
