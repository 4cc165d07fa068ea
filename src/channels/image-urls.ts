// Inlines inbound images that arrive as URLs, so the model can see them: each image under the media
// cap is fetched (with the platform's auth header when it needs one) and carried as base64 in
// `data`. Used by adapters whose platforms hand out file URLs (Discord's CDN, Slack's url_private).
// A failure leaves the URL in place and is logged; an image that cannot be fetched never blocks its
// message. One deadline covers all of a message's images (Slack wants its ack within 3 s).

import type { Logger } from "../lib/logger.js";
import type { InboundMedia } from "./types.js";

/** Headers to fetch `url` with, or `"skip"` for a URL this platform's credentials must not reach. */
export type ImageRequestHeaders = (url: URL) => Record<string, string> | "skip";

/** Inputs for {@link inlineImageUrls}. */
export interface InlineImageUrlsParams {
  media: InboundMedia[];
  maxBytes: number;
  /** Deadline for all of the message's downloads together. */
  timeoutMs: number;
  signal: AbortSignal;
  log: Logger;
  /** The platform's name in log lines (`discord`, `slack`). */
  channel: string;
  /** Per-URL headers; without it every image is fetched with none. */
  headers?: ImageRequestHeaders;
}

async function fetchBytes(
  url: URL,
  headers: Record<string, string>,
  params: InlineImageUrlsParams,
  signal: AbortSignal,
): Promise<Buffer> {
  const res = await fetch(url, { headers, signal });
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  // Slack answers a token without files:read with its sign-in page, not an error status.
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/html")) {
    await res.body?.cancel();
    throw new Error("download answered an HTML page, not the file (does the token lack access?)");
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > params.maxBytes)
    throw new Error(`file is ${bytes.length} bytes, over the media cap`);
  return bytes;
}

/** Returns `media` with every image under the cap carrying its bytes in `data`. */
export async function inlineImageUrls(params: InlineImageUrlsParams): Promise<InboundMedia[]> {
  const out: InboundMedia[] = [];
  const signal = AbortSignal.any([params.signal, AbortSignal.timeout(params.timeoutMs)]);
  for (const entry of params.media) {
    const tooBig = entry.size !== undefined && entry.size > params.maxBytes;
    const url = entry.url && URL.canParse(entry.url) ? new URL(entry.url) : undefined;
    const headers = url && params.headers ? params.headers(url) : {};
    if (entry.kind !== "image" || !url || tooBig || headers === "skip") {
      if (headers === "skip")
        params.log.warn(
          { fileName: entry.fileName, host: url?.host },
          `${params.channel}: image not downloaded: its host is not the platform's file host`,
        );
      out.push(entry);
      continue;
    }
    try {
      const bytes = await fetchBytes(url, headers, params, signal);
      out.push({ ...entry, size: bytes.length, data: bytes.toString("base64") });
    } catch (err) {
      params.log.warn(
        { fileName: entry.fileName, error: (err as Error).message },
        `${params.channel}: image download failed; passing its URL only`,
      );
      out.push(entry);
    }
  }
  return out;
}
