// One outbound message through imsg's `send`: a DM `to` the handle (with the account's service and
// region), a group by `chat_id`. Attachments go as local files (`file`): a path as it is, a URL
// fetched within the media cap into the account's outbox folder and removed after the send. Text
// goes after the attachments, as written (iMessage has no text styles over imsg). imsg answers no
// message id, so the receipt is `sent:<time>`. Failures are values.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { OutboundMedia, OutboundMessage, OutboundTarget, SendResult } from "../index.js";
import type { IMessageRpc } from "./rpc.js";
import type { IMessageSettings } from "./settings.js";

/** Where `send` delivers a target: a group by chat id, else a DM to the handle. */
export function iMessageDestination(
  target: Pick<OutboundTarget, "peer">,
  settings: Pick<IMessageSettings, "service" | "region">,
): Record<string, unknown> {
  const group = /^chat_id:(\d+)$/.exec(target.peer.id);
  if (group) return { chat_id: Number(group[1]) };
  return { to: target.peer.id, service: settings.service, region: settings.region };
}

async function fetchToFile(params: {
  url: string;
  dir: string;
  maxBytes: number;
  name: string;
}): Promise<string> {
  const res = await fetch(params.url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`fetching ${params.url}: HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > params.maxBytes)
    throw new Error(
      `${params.url} is ${bytes.length} bytes, over the media cap of ${params.maxBytes}`,
    );
  await mkdir(params.dir, { recursive: true, mode: 0o700 });
  const file = join(params.dir, `${Date.now()}-${params.name.replace(/[^\w.-]/g, "_")}`);
  await writeFile(file, bytes, { mode: 0o600 });
  return file;
}

function nameOf(media: OutboundMedia): string {
  if (media.fileName) return media.fileName;
  try {
    return basename(new URL(media.url ?? "").pathname) || "attachment";
  } catch {
    return "attachment";
  }
}

/** Sends one message (attachments first, then the text); never throws. */
export async function sendIMessage(params: {
  rpc: IMessageRpc;
  message: OutboundMessage;
  settings: IMessageSettings;
  /** Where fetched attachments wait for their send. */
  outboxDir: string;
  now: () => number;
}): Promise<SendResult> {
  const { rpc, message, settings } = params;
  const destination = iMessageDestination(message.target, settings);
  for (const media of message.media ?? []) {
    let file = media.path;
    let fetched = false;
    if (!file && media.url) {
      try {
        file = await fetchToFile({
          url: media.url,
          dir: params.outboxDir,
          maxBytes: settings.mediaMaxBytes,
          name: nameOf(media),
        });
        fetched = true;
      } catch (err) {
        return { ok: false, failure: { message: (err as Error).message, retryable: false } };
      }
    }
    if (!file) continue;
    const sent = await rpc.call("send", {
      ...destination,
      file,
      ...(media.caption ? { text: media.caption } : {}),
    });
    if (fetched) await rm(file, { force: true });
    if (!sent.ok) return sent;
  }
  const text = message.text ?? "";
  if (text.trim() !== "") {
    const sent = await rpc.call("send", { ...destination, text });
    if (!sent.ok) return sent;
  }
  return { ok: true, receipt: { messageId: `sent:${params.now()}` } };
}
