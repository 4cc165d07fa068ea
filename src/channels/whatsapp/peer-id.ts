// WhatsApp ids as Pincer's peers see them, the same on both transports: a person is their number in
// E.164 (`+15551234567`, from a Baileys JID `15551234567:3@s.whatsapp.net` or a Cloud API `wa_id`),
// a group keeps its JID (`120363…@g.us`). Bindings, allowlists and session keys use these forms.

import { phoneDigits } from "../../lib/phone-number.js";

const USER_SERVERS = new Set(["s.whatsapp.net", "c.us"]);

/** The kinds of WhatsApp JID an inbound message can carry. */
export type WhatsAppJidKind =
  | "user"
  | "group"
  | "lid"
  | "status"
  | "broadcast"
  | "newsletter"
  | "other";

/** `+digits` from any common spelling of a phone number (`+1 555-123 4567`, `0015551234567`,
 *  `whatsapp:+1555…`, a bare `wa_id`); undefined when it is not 6–15 digits. */
export function normalizeE164(input: string | number): string | undefined {
  const text = String(input)
    .trim()
    .replace(/^whatsapp:/i, "");
  if (text.includes("@")) return jidToE164(text);
  const digits = phoneDigits(text);
  return digits === undefined ? undefined : `+${digits}`;
}

/** What a JID names, by its server part. */
export function whatsAppJidKind(jid: string): WhatsAppJidKind {
  const server = jid.slice(jid.lastIndexOf("@") + 1);
  if (jid === "status@broadcast") return "status";
  if (USER_SERVERS.has(server)) return "user";
  if (server === "g.us") return "group";
  if (server === "lid") return "lid";
  if (server === "broadcast") return "broadcast";
  if (server === "newsletter") return "newsletter";
  return "other";
}

/** The E.164 number of a user JID (device and agent suffixes dropped); undefined for other JIDs. */
export function jidToE164(jid: string): string | undefined {
  if (whatsAppJidKind(jid) !== "user") return undefined;
  const user = jid.slice(0, jid.lastIndexOf("@")).split(":")[0]?.split("_")[0] ?? "";
  return /^\d{6,15}$/.test(user) ? `+${user}` : undefined;
}

/** The peer id Pincer uses for a JID: E.164 for a user, the JID itself for groups and LIDs. */
export function jidToPeerId(jid: string): string {
  return jidToE164(jid) ?? jid;
}

/** The JID to send to for a peer id or a typed target (`+1555…`, `1555…`, `…@g.us`, `…@lid`);
 *  an error naming the input when it is neither a number nor a JID. */
export function peerIdToJid(id: string): { ok: true; jid: string } | { ok: false; error: string } {
  const trimmed = id.trim();
  if (trimmed.includes("@")) {
    const kind = whatsAppJidKind(trimmed);
    if (kind === "user") {
      const number = jidToE164(trimmed);
      if (number) return { ok: true, jid: `${number.slice(1)}@s.whatsapp.net` };
    }
    if (kind === "group" || kind === "lid" || kind === "newsletter")
      return { ok: true, jid: trimmed };
    return { ok: false, error: `"${id}" is not a WhatsApp user, group or LID JID` };
  }
  const number = normalizeE164(trimmed);
  if (!number)
    return { ok: false, error: `"${id}" is not a phone number in E.164 (+15551234567) or a JID` };
  return { ok: true, jid: `${number.slice(1)}@s.whatsapp.net` };
}
