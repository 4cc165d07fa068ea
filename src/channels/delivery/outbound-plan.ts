// What a run's reply becomes on a channel: each payload's media, then its text chunked to the
// platform limit, all addressed to the exact (account, peer, thread) the message came from, quoting
// the inbound message per `replyToMode` (off | first | all | batched; default first). It takes
// payloads already screened by the media policy (screen-media.ts), so no unchecked path gets through.
import type { OutboundMessage, OutboundTarget } from "../types.js";
import { chunkReplyText } from "./chunk-text.js";
import type { ScreenedPayload } from "./screen-media.js";

/** Inputs of {@link planReplyMessages}. */
export interface PlanReplyParams {
  payloads: readonly ScreenedPayload[];
  /** The conversation; `replyToId` is the inbound message id. */
  target: OutboundTarget;
  maxTextLength: number;
  replyToMode?: string;
  /** Whether the platform takes attachments; otherwise remote URLs are appended as text (local files dropped). */
  media?: boolean;
}

/** The inbound id a reply quotes: an explicit `[[reply_to:…]]` wins over the mode. */
function quoteFor(payload: ScreenedPayload, target: OutboundTarget): string | undefined {
  if (!payload.replyTo) return undefined;
  return payload.replyTo === "current" ? target.replyToId : payload.replyTo;
}

/** The messages to send for a run's payloads (empty for a silent or empty reply). */
export function planReplyMessages(params: PlanReplyParams): OutboundMessage[] {
  const mode = params.replyToMode ?? "first";
  const { replyToId: inboundId, ...base } = params.target;
  const out: OutboundMessage[] = [];
  for (const payload of params.payloads) {
    const media = payload.media;
    const urls = media.flatMap((item) => (item.url ? [item.url] : []));
    const text =
      params.media === false && urls.length > 0
        ? [payload.text, ...urls].filter(Boolean).join("\n")
        : payload.text;
    const chunks = chunkReplyText(text, params.maxTextLength);
    const explicit = quoteFor(payload, params.target);
    const parts: OutboundMessage[] = [];
    if (media.length > 0 && params.media !== false) parts.push({ target: { ...base }, media });
    for (const chunk of chunks) parts.push({ target: { ...base }, text: chunk });
    for (const part of parts) {
      const first = out.length === 0;
      const quote =
        explicit ??
        (mode === "all" || ((mode === "first" || mode === "batched") && first)
          ? inboundId
          : undefined);
      if (quote) part.target.replyToId = quote;
      out.push(part);
    }
  }
  return out;
}
