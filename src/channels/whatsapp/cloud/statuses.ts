// A Cloud API status callback (`statuses[]`: sent / delivered / read / failed for a message this
// number sent) → the host's delivery update. A `failed` one carries WhatsApp's error (code, title,
// details), so the dead letter says why: 131047 (the 24-hour window closed), 131026 (undeliverable)…
import type { ChannelDeliveryUpdate } from "../../index.js";
import { normalizeE164 } from "../peer-id.js";
import { objectOf, stringOf } from "./webhook-payload.js";

const STATUSES = new Set(["sent", "delivered", "read", "failed"]);

function errorOf(status: Record<string, unknown>): ChannelDeliveryUpdate["error"] {
  const first = Array.isArray(status.errors) ? objectOf(status.errors[0]) : undefined;
  if (!first) return { message: "WhatsApp reported the message failed (no reason given)" };
  const code = typeof first.code === "number" ? first.code : undefined;
  const details = stringOf(objectOf(first.error_data)?.details);
  const title = stringOf(first.title) ?? stringOf(first.message) ?? "delivery failed";
  const window24h =
    code === 131047
      ? "more than 24 hours since the customer last wrote, so only a template message can reach them"
      : undefined;
  const text = [window24h ?? title, details && details !== title ? details : undefined]
    .filter(Boolean)
    .join(": ");
  return {
    message: `WhatsApp could not deliver the message${code !== undefined ? ` (error ${code})` : ""}: ${text}`,
    ...(code !== undefined ? { code: `whatsapp_${code}` } : {}),
  };
}

/** The update of one status callback; a reason naming the field when it is malformed; undefined
 *  for a status this transport does not track (`deleted`, `warning`, …). */
export function toDeliveryUpdate(
  raw: unknown,
  where: string,
): { ok: true; update?: ChannelDeliveryUpdate } | { ok: false; reason: string } {
  const status = objectOf(raw);
  if (!status) return { ok: false, reason: `${where} is not an object` };
  const messageId = stringOf(status.id);
  if (!messageId) return { ok: false, reason: `${where}.id is missing` };
  const value = stringOf(status.status);
  if (!value || !STATUSES.has(value)) return { ok: true };
  const recipient = stringOf(status.recipient_id);
  const number = recipient ? normalizeE164(recipient) : undefined;
  const update: ChannelDeliveryUpdate = {
    messageId,
    peer: { kind: "direct", id: number ?? recipient ?? "unknown" },
    status: value as ChannelDeliveryUpdate["status"],
  };
  if (value === "failed") update.error = errorOf(status);
  return { ok: true, update };
}
