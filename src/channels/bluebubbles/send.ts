// One outbound message through the BlueBubbles REST API: text by `POST message/text` (a reply
// names the message it answers as `selectedMessageGuid`, which needs the server's Private API),
// each attachment by `POST message/attachment` (multipart, the file read here, within the media
// cap). The chat is the GUID the peer's messages came from, else `iMessage;-;<handle>` for a DM.
// Markdown is sent as written (iMessage has no text styles over this API). Failures are values.
import { randomUUID } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import type { OutboundMedia, OutboundMessage, SendResult } from "../index.js";
import type { BlueBubblesClient } from "./client.js";

/** Inputs of {@link sendBlueBubblesMessage}. */
export interface SendBlueBubblesParams {
  client: BlueBubblesClient;
  message: OutboundMessage;
  chatGuid: string;
  mediaMaxBytes: number;
}

async function bytesOf(media: OutboundMedia, maxBytes: number): Promise<Buffer> {
  if (media.path) {
    const info = await stat(media.path);
    if (info.size > maxBytes) throw new Error(`${info.size} bytes, over the media cap`);
    return readFile(media.path);
  }
  if (!media.url) throw new Error("neither a path nor a URL");
  const res = await fetch(media.url, { signal: AbortSignal.timeout(60_000) });
  if (!res.ok) throw new Error(`download answered HTTP ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) throw new Error(`${bytes.length} bytes, over the media cap`);
  return bytes;
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

function guidOf(data: unknown): string | undefined {
  const guid = (data as { guid?: unknown } | undefined)?.guid;
  return typeof guid === "string" && guid !== "" ? guid : undefined;
}

/** Sends one message (attachments first, then the text); never throws. */
export async function sendBlueBubblesMessage(params: SendBlueBubblesParams): Promise<SendResult> {
  const { client, message, chatGuid } = params;
  let lastGuid: string | undefined;
  for (const media of message.media ?? []) {
    let bytes: Buffer;
    try {
      bytes = await bytesOf(media, params.mediaMaxBytes);
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
    const form = new FormData();
    form.set("chatGuid", chatGuid);
    form.set("tempGuid", randomUUID());
    form.set("name", nameOf(media));
    form.set("attachment", new Blob([new Uint8Array(bytes)]), nameOf(media));
    const result = await client.call({ method: "POST", path: "message/attachment", form });
    if (!result.ok) return result;
    lastGuid = guidOf(result.data) ?? lastGuid;
  }
  const text = message.text ?? "";
  if (text.trim() !== "") {
    const reply = message.target.replyToId;
    const result = await client.call({
      method: "POST",
      path: "message/text",
      json: {
        chatGuid,
        tempGuid: randomUUID(),
        message: text,
        ...(reply ? { method: "private-api", selectedMessageGuid: reply, partIndex: 0 } : {}),
      },
    });
    if (!result.ok) return result;
    lastGuid = guidOf(result.data) ?? lastGuid;
  }
  if (lastGuid === undefined)
    return {
      ok: false,
      failure: {
        message: "BlueBubbles answered without a message guid; the message may have been sent",
        retryable: false,
        uncertain: true,
        code: "malformed",
      },
    };
  return { ok: true, receipt: { messageId: lastGuid } };
}
