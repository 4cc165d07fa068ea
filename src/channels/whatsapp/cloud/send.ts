// Outbound messages as Cloud API calls (`POST /{phoneNumberId}/messages`): text converted to
// WhatsApp markup (link previews off) and cut to the 4096-character body limit, then each
// attachment by `link` (a URL) or by the id of an upload (`media-upload.ts`, a local path). The
// first message quotes `replyToId` (`context.message_id`). Recipients are phone numbers: the Cloud
// API has no groups. Failures come back as values; once a part is out, a later failure is final.
import type { OutboundMessage, SendFailure, SendResult } from "../../index.js";
import { markdownToWhatsApp } from "../format.js";
import { normalizeE164 } from "../peer-id.js";
import type { GraphClient, GraphResult } from "./graph-client.js";
import { cloudMediaType, uploadMedia } from "./media-upload.js";
import type { RecentMessages } from "./recent-messages.js";
import type { CloudAccountSettings } from "./settings.js";

/** The Cloud API's longest text body. */
export const CLOUD_TEXT_LIMIT = 4096;
/** The Cloud API's longest media caption. */
export const CLOUD_CAPTION_LIMIT = 1024;

/** Inputs for {@link sendCloudMessage}. */
export interface SendCloudParams {
  graph: GraphClient;
  settings: Pick<CloudAccountSettings, "phoneNumberId">;
  message: OutboundMessage;
  recent: RecentMessages;
}

type Step = (context: Record<string, unknown>) => Promise<GraphResult>;

/** Text cut to pieces of at most `limit` characters, at a newline or space when there is one. */
export function splitText(text: string, limit: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    const cut = Math.max(window.lastIndexOf("\n"), window.lastIndexOf(" "));
    const at = cut > limit / 2 ? cut : limit;
    pieces.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.trim()) pieces.push(rest);
  return pieces;
}

function recipientOf(message: OutboundMessage): string | SendFailure {
  const { peer } = message.target;
  const number = peer.kind === "direct" ? normalizeE164(peer.id) : undefined;
  if (number) return number.slice(1);
  return {
    message: `WhatsApp Cloud API sends to phone numbers only; "${peer.id}" (${peer.kind}) is not one`,
    retryable: false,
    code: "bad_target",
  };
}

function messageIdOf(result: GraphResult): string | undefined {
  if (!result.ok) return undefined;
  const messages = result.body.messages;
  const first = Array.isArray(messages) ? (messages[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === "string" ? first.id : undefined;
}

function post(params: SendCloudParams, to: string, payload: Record<string, unknown>): Step {
  return (context) =>
    params.graph.call({
      method: "POST",
      path: `${params.settings.phoneNumberId}/messages`,
      json: {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to,
        ...context,
        ...payload,
      },
    });
}

function steps(params: SendCloudParams, to: string): Array<{ step: Step; body?: string }> {
  const { message } = params;
  const out: Array<{ step: Step; body?: string }> = [];
  const text = message.text?.trim() ? markdownToWhatsApp(message.text) : "";
  for (const piece of splitText(text, CLOUD_TEXT_LIMIT)) {
    out.push({
      step: post(params, to, { type: "text", text: { body: piece, preview_url: false } }),
      body: piece,
    });
  }
  for (const media of message.media ?? []) {
    const type = cloudMediaType(media);
    const caption = media.caption
      ? markdownToWhatsApp(media.caption).slice(0, CLOUD_CAPTION_LIMIT)
      : "";
    const extra: Record<string, unknown> = {};
    if (caption && type !== "audio" && type !== "sticker") extra.caption = caption;
    if (type === "document" && media.fileName) extra.filename = media.fileName;
    out.push({
      step: async (context) => {
        let source: Record<string, unknown>;
        if (media.url) source = { link: media.url };
        else {
          const uploaded = await uploadMedia({
            graph: params.graph,
            settings: params.settings,
            media,
            type,
          });
          if (!uploaded.ok) return uploaded;
          source = { id: uploaded.id };
        }
        return post(params, to, { type, [type]: { ...source, ...extra } })(context);
      },
      ...(extra.caption ? { body: caption } : {}),
    });
  }
  return out;
}

/** Sends one outbound message; never throws for platform errors. */
export async function sendCloudMessage(params: SendCloudParams): Promise<SendResult> {
  const to = recipientOf(params.message);
  if (typeof to !== "string") return { ok: false, failure: to };
  const planned = steps(params, to);
  if (planned.length === 0)
    return { ok: false, failure: { message: "nothing to send", retryable: false, code: "empty" } };
  const replyTo = params.message.target.replyToId;
  let lastId: string | undefined;
  for (const [index, { step, body }] of planned.entries()) {
    const context = index === 0 && replyTo ? { context: { message_id: replyTo } } : {};
    const result = await step(context);
    if (!result.ok) {
      if (index === 0) return result;
      // Part of the message is out: a retry would repeat it, so the failure is final.
      const { failure } = result;
      return {
        ok: false,
        failure: {
          ...failure,
          retryable: false,
          message: `${index} of ${planned.length} parts sent; ${failure.message}`,
        },
      };
    }
    lastId = messageIdOf(result) ?? lastId;
    if (lastId) params.recent.remember(lastId, body ? { body } : {});
  }
  if (!lastId)
    return {
      ok: false,
      failure: {
        message: "WhatsApp Cloud API answered without a message id; the message may have been sent",
        retryable: false,
        uncertain: true,
        code: "no_message_id",
      },
    };
  return { ok: true, receipt: { messageId: lastId } };
}
