import { describe, expect, it } from "vitest";
import { toCloudInbound } from "./inbound.js";
import { toDeliveryUpdate } from "./statuses.js";
import { hasValidSignature, signBody } from "./webhook-auth.js";
import { parseWebhookBody } from "./webhook-payload.js";

const convert = (message: unknown, recall = () => undefined) =>
  toCloudInbound({
    message,
    contacts: [{ wa_id: "15551230001", name: "Vee" }],
    accountId: "biz",
    where: "m",
    recall,
    now: () => 42,
  });
const base = { from: "15551230001", id: "wamid.1", timestamp: "1700000000" };

describe("cloud inbound messages", () => {
  it("a text is a DM from the E.164 sender, with the profile name", () => {
    const out = convert({ ...base, type: "text", text: { body: "hi" } });
    expect(out).toMatchObject({
      kind: "inbound",
      inbound: {
        messageId: "wamid.1",
        timestamp: 1_700_000_000_000,
        sender: { id: "+15551230001", name: "Vee" },
        peer: { kind: "direct", id: "+15551230001" },
        text: "hi",
        media: [],
      },
    });
  });

  it("buttons become their title, media their id and caption, voice notes voice", () => {
    const button = convert({
      ...base,
      type: "interactive",
      interactive: { type: "button_reply", button_reply: { id: "yes-1", title: "Yes" } },
    });
    expect(button.kind === "inbound" && button.inbound.text).toBe("Yes");
    const template = convert({ ...base, type: "button", button: { payload: "P", text: "Stop" } });
    expect(template.kind === "inbound" && template.inbound.text).toBe("Stop");
    const doc = convert({
      ...base,
      type: "document",
      document: { id: "m1", mime_type: "application/pdf", filename: "a.pdf", caption: "see" },
    });
    expect(doc.kind === "inbound" && doc.inbound).toMatchObject({
      text: "see",
      media: [{ kind: "document", fileId: "m1", mimeType: "application/pdf", fileName: "a.pdf" }],
    });
    const voice = convert({
      ...base,
      type: "audio",
      audio: { id: "m2", mime_type: "audio/ogg", voice: true },
    });
    expect(voice.kind === "inbound" && voice.inbound.media[0]?.kind).toBe("voice");
  });

  it("a reply carries the quoted id, and the body when the account saw it", () => {
    const out = convert(
      { ...base, type: "text", text: { body: "this" }, context: { from: "1555", id: "wamid.0" } },
      (() => ({ body: "earlier", sender: "Biz" })) as never,
    );
    expect(out.kind === "inbound" && out.inbound.replyTo).toEqual({
      id: "wamid.0",
      body: "earlier",
      sender: "Biz",
    });
  });

  it("ignores reactions and names what is malformed", () => {
    expect(convert({ ...base, type: "reaction", reaction: { emoji: "👍" } })).toEqual({
      kind: "ignored",
    });
    expect(convert({ ...base, from: "alice", type: "text", text: { body: "x" } })).toMatchObject({
      kind: "invalid",
      reason: expect.stringContaining("m.from"),
    });
    expect(convert({ from: "1555123", type: "text" })).toEqual({
      kind: "invalid",
      reason: "m.id is missing",
    });
  });
});

describe("cloud webhook bodies", () => {
  it("checks the signature over the raw bytes", () => {
    const body = Buffer.from('{"a":1}');
    const headers = { "x-hub-signature-256": signBody(body, "s") };
    expect(hasValidSignature({ headers, body }, "s")).toBe(true);
    expect(hasValidSignature({ headers, body: Buffer.from('{"a": 1}') }, "s")).toBe(false);
    expect(hasValidSignature({ headers, body }, "other")).toBe(false);
    expect(hasValidSignature({ headers: {}, body }, "s")).toBe(false);
    expect(hasValidSignature({ headers: { "x-hub-signature-256": "sha256=ab" }, body }, "s")).toBe(
      false,
    );
  });

  it("refuses a body that is not a WhatsApp webhook, naming why", () => {
    expect(parseWebhookBody(Buffer.from("nope"))).toEqual({
      ok: false,
      reason: "body is not JSON",
    });
    expect(parseWebhookBody(Buffer.from('{"object":"page","entry":[]}'))).toMatchObject({
      ok: false,
    });
    expect(
      parseWebhookBody(
        Buffer.from('{"object":"whatsapp_business_account","entry":[{"changes":5}]}'),
      ),
    ).toEqual({ ok: false, reason: "entry[0].changes is not an array" });
  });

  it("turns a failed status into a delivery failure with WhatsApp's reason", () => {
    const result = toDeliveryUpdate(
      {
        id: "wamid.out.1",
        status: "failed",
        recipient_id: "15551230001",
        errors: [{ code: 131026, title: "Message undeliverable" }],
      },
      "s",
    );
    expect(result).toEqual({
      ok: true,
      update: {
        messageId: "wamid.out.1",
        peer: { kind: "direct", id: "+15551230001" },
        status: "failed",
        error: {
          message: "WhatsApp could not deliver the message (error 131026): Message undeliverable",
          code: "whatsapp_131026",
        },
      },
    });
    expect(toDeliveryUpdate({ id: "w", status: "deleted" }, "s")).toEqual({ ok: true });
    expect(toDeliveryUpdate({ status: "read" }, "s")).toEqual({
      ok: false,
      reason: "s.id is missing",
    });
  });
});
