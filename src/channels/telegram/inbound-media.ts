// Downloads inbound photos so the model can see them: getFile, then `<apiRoot>/file/bot<token>/<path>`,
// inlined as base64 when under the media cap. Failures leave the file id in place and are logged; a
// photo that cannot be fetched never blocks the message.
import type { Api } from "grammy";
import type { InboundMedia, Logger } from "../index.js";
import type { TelegramAccountSettings } from "./account-settings.js";
import { toGrammySignal } from "./grammy-signal.js";

/** Inputs for {@link downloadInboundImages}. */
export interface DownloadInboundImagesParams {
  media: InboundMedia[];
  api: Api;
  settings: Pick<TelegramAccountSettings, "apiRoot" | "token" | "mediaMaxBytes">;
  signal: AbortSignal;
  log: Logger;
}

async function fetchBytes(url: string, signal: AbortSignal, maxBytes: number): Promise<Buffer> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) throw new Error(`file is ${bytes.length} bytes, over the media cap`);
  return bytes;
}

async function downloadOne(
  entry: InboundMedia,
  params: DownloadInboundImagesParams,
): Promise<InboundMedia> {
  const { api, settings, signal, log } = params;
  if (entry.kind !== "image" || !entry.fileId) return entry;
  if (entry.size !== undefined && entry.size > settings.mediaMaxBytes) return entry;
  try {
    const file = await api.getFile(entry.fileId, toGrammySignal(signal));
    if (!file.file_path) return entry;
    if (file.file_size !== undefined && file.file_size > settings.mediaMaxBytes) return entry;
    const url = `${settings.apiRoot}/file/bot${settings.token}/${file.file_path}`;
    const bytes = await fetchBytes(url, signal, settings.mediaMaxBytes);
    return { ...entry, size: bytes.length, data: bytes.toString("base64") };
  } catch (err) {
    log.warn(
      { fileId: entry.fileId, error: (err as Error).message },
      "telegram: photo download failed; passing the file id only",
    );
    return entry;
  }
}

/** Returns `media` with every image under the cap carrying its bytes in `data`. */
export async function downloadInboundImages(
  params: DownloadInboundImagesParams,
): Promise<InboundMedia[]> {
  const out: InboundMedia[] = [];
  for (const entry of params.media) out.push(await downloadOne(entry, params));
  return out;
}
