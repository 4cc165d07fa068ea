import { describe, expect, it } from "vitest";
import { validateConfig } from "../../config/validate.js";
import { toIMessageInbound } from "./inbound.js";
import { iMessageDestination } from "./send.js";
import { listIMessageAccounts, resolveIMessageSettings } from "./settings.js";

const now = () => 1_000;
const convert = (message: unknown) => toIMessageInbound({ message, accountId: "default", now });

describe("imsg messages", () => {
  it("a DM by E.164 handle, a group by chat_id with its name, a reply and attachments", () => {
    const dm = convert({
      id: 7,
      chat_id: 3,
      guid: "G7",
      sender: "+1 (555) 765-4321",
      text: "hi \uFFFC",
      created_at: "2026-12-03T10:00:00Z",
      reply_to_guid: "G6",
      attachments: [
        {
          original_path: "/p/a.jpg",
          mime_type: "image/jpeg",
          transfer_name: "a.jpg",
          total_bytes: 10,
        },
        { original_path: "/p/gone.pdf", missing: true },
      ],
    });
    expect(dm).toMatchObject({
      kind: "inbound",
      rowid: 7,
      inbound: {
        channel: "imessage",
        messageId: "G7",
        timestamp: Date.parse("2026-12-03T10:00:00Z"),
        sender: { id: "+15557654321" },
        peer: { kind: "direct", id: "+15557654321" },
        text: "hi",
        replyTo: { id: "G6" },
        media: [
          {
            kind: "image",
            fileId: "/p/a.jpg",
            mimeType: "image/jpeg",
            fileName: "a.jpg",
            size: 10,
          },
        ],
      },
    });
    const group = convert({
      id: 8,
      chat_id: 42,
      sender: "Bob@Example.com",
      text: "lunch?",
      is_group: true,
      chat_name: "Lunch",
    });
    expect(group).toMatchObject({
      kind: "inbound",
      inbound: {
        messageId: "rowid:8",
        sender: { id: "bob@example.com" },
        peer: { kind: "group", id: "chat_id:42" },
        peerName: "Lunch",
        timestamp: 1_000,
      },
    });
  });

  it("ignores our own and empty messages (keeping the cursor); a message without chat_id or sender is invalid", () => {
    expect(convert({ id: 1, chat_id: 1, sender: "x@y.z", text: "mine", is_from_me: true })).toEqual(
      {
        kind: "ignored",
        rowid: 1,
      },
    );
    expect(convert({ id: 2, chat_id: 1, sender: "x@y.z", text: "  " })).toEqual({
      kind: "ignored",
      rowid: 2,
    });
    expect(convert({ id: 3, sender: "x@y.z", text: "t" })).toMatchObject({
      kind: "invalid",
      reason: "chat_id missing",
    });
    expect(convert({ id: 4, chat_id: 1, text: "t" })).toMatchObject({
      kind: "invalid",
      reason: "sender missing",
    });
    expect(convert("nope")).toMatchObject({ kind: "invalid" });
  });
});

describe("imsg settings and targets", () => {
  it("defaults to imsg on PATH, auto service, US; refuses an unknown service naming the key", () => {
    expect(resolveIMessageSettings({ config: {} })).toEqual({
      ok: true,
      settings: {
        cliPath: "imsg",
        service: "auto",
        region: "US",
        includeAttachments: true,
        mediaMaxBytes: 16 * 1024 * 1024,
        timeoutMs: 30_000,
      },
    });
    expect(resolveIMessageSettings({ config: { service: "fax" }, accountId: "work" })).toEqual({
      ok: false,
      error:
        'imessage: channels.imessage.accounts.work.service "fax" is not one of auto, imessage, sms',
    });
    const issues = validateConfig({ channels: { imessage: { service: "fax" } } }).issues;
    expect(issues.some((i) => i.severity === "error" && i.path.includes("imessage.service"))).toBe(
      true,
    );
    expect(listIMessageAccounts({})).toEqual(["default"]);
    expect(listIMessageAccounts({ cliPath: "imsg", accounts: { work: {} } })).toEqual([
      "default",
      "work",
    ]);
  });

  it("sends a group by chat_id and a DM to the handle with the service and region", () => {
    const settings = { service: "sms" as const, region: "DE" };
    expect(iMessageDestination({ peer: { kind: "group", id: "chat_id:42" } }, settings)).toEqual({
      chat_id: 42,
    });
    expect(
      iMessageDestination({ peer: { kind: "direct", id: "+4915112345678" } }, settings),
    ).toEqual({
      to: "+4915112345678",
      service: "sms",
      region: "DE",
    });
  });
});
