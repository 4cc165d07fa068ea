// The shape of a Cloud API webhook body (`object: whatsapp_business_account`, `entry[].changes[]`
// with `field: messages`): each change's value gives the receiving phone number id, the senders'
// profiles, the messages and the status callbacks. Checked field by field so a malformed body is
// refused with a reason naming the field, never a TypeError; messages and statuses are checked
// one by one later (one bad message does not sink the others).

/** A sender profile of a change (`contacts[]`). */
export interface CloudContact {
  wa_id: string;
  name?: string;
}

/** One `value` of a `messages` change, messages and statuses still unchecked. */
export interface CloudChange {
  /** `entry[i].changes[j]`, for logs. */
  where: string;
  phoneNumberId?: string;
  contacts: CloudContact[];
  messages: unknown[];
  statuses: unknown[];
}

/** The changes of a body, or why it is not a webhook body. */
export type ParsedWebhook = { ok: true; changes: CloudChange[] } | { ok: false; reason: string };

/** A plain object, or undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A non-empty string field, or undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function contactsOf(value: unknown): CloudContact[] {
  if (!Array.isArray(value)) return [];
  const out: CloudContact[] = [];
  for (const item of value) {
    const contact = objectOf(item);
    const waId = stringOf(contact?.wa_id);
    if (!waId) continue;
    const name = stringOf(objectOf(contact?.profile)?.name);
    out.push(name ? { wa_id: waId, name } : { wa_id: waId });
  }
  return out;
}

/** Parses a webhook body (already signature-checked) into its `messages` changes. */
export function parseWebhookBody(body: Buffer): ParsedWebhook {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return { ok: false, reason: "body is not JSON" };
  }
  const root = objectOf(json);
  if (!root) return { ok: false, reason: "body is not a JSON object" };
  if (root.object !== "whatsapp_business_account")
    return {
      ok: false,
      reason: `object is ${JSON.stringify(root.object)}, not whatsapp_business_account`,
    };
  if (!Array.isArray(root.entry)) return { ok: false, reason: "entry is not an array" };
  const changes: CloudChange[] = [];
  for (const [i, rawEntry] of root.entry.entries()) {
    const entry = objectOf(rawEntry);
    if (!entry || !Array.isArray(entry.changes))
      return { ok: false, reason: `entry[${i}].changes is not an array` };
    for (const [j, rawChange] of entry.changes.entries()) {
      const change = objectOf(rawChange);
      const where = `entry[${i}].changes[${j}]`;
      if (!change) return { ok: false, reason: `${where} is not an object` };
      if (change.field !== "messages") continue;
      const value = objectOf(change.value);
      if (!value) return { ok: false, reason: `${where}.value is not an object` };
      const phoneNumberId = stringOf(objectOf(value.metadata)?.phone_number_id);
      changes.push({
        where,
        ...(phoneNumberId ? { phoneNumberId } : {}),
        contacts: contactsOf(value.contacts),
        messages: Array.isArray(value.messages) ? value.messages : [],
        statuses: Array.isArray(value.statuses) ? value.statuses : [],
      });
    }
  }
  return { ok: true, changes };
}
