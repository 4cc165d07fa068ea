import { describe, expect, it } from "vitest";
import { parseSignalMessageId, toSignalInbound } from "./inbound.js";

const SELF = "+15550000001";
const convert = (envelope: unknown) =>
  toSignalInbound({ event: { envelope, account: SELF }, accountId: "default", self: SELF });

describe("toSignalInbound", () => {
  it("a DM by number: peer, id <timestamp>:<sender>, name", () => {
    const result = convert({
      source: "+1 555 765 4321",
      sourceNumber: "+15557654321",
      sourceUuid: "u-1",
      sourceName: "Alice",
      timestamp: 1700000000001,
      dataMessage: { timestamp: 1700000000001, message: "hi" },
    });
    expect(result).toMatchObject({
      kind: "inbound",
      inbound: {
        messageId: "1700000000001:+15557654321",
        peer: { kind: "direct", id: "+15557654321" },
        sender: { id: "+15557654321", name: "Alice" },
        text: "hi",
        mentionedSelf: false,
      },
    });
  });

  it("a hidden number falls back to the UUID; a group message is a group peer with the raw id", () => {
    const result = convert({
      sourceUuid: "8f0c-uuid",
      timestamp: 5,
      dataMessage: {
        timestamp: 5,
        message: "\uFFFC look",
        groupInfo: { groupId: "AbC+/=" },
        mentions: [{ number: SELF, uuid: "u-self", start: 0, length: 1 }],
        quote: { id: 3, authorNumber: "+15559990000", text: "earlier" },
      },
    });
    expect(result.kind).toBe("inbound");
    if (result.kind !== "inbound") return;
    expect(result.inbound.peer).toEqual({ kind: "group", id: "AbC+/=" });
    expect(result.inbound.sender.id).toBe("8f0c-uuid");
    expect(result.inbound.text).toBe(`@${SELF} look`);
    expect(result.inbound.mentions).toEqual([SELF]);
    expect(result.inbound.mentionedSelf).toBe(true);
    expect(result.inbound.replyTo).toEqual({
      id: "3:+15559990000",
      body: "earlier",
      sender: "+15559990000",
    });
  });

  it("ignores stories, receipts, typing and empty messages; refuses a malformed envelope", () => {
    const base = { sourceNumber: "+15557654321", timestamp: 9 };
    expect(convert({ ...base, storyMessage: {} }).kind).toBe("ignored");
    expect(convert({ ...base, receiptMessage: { isRead: true } }).kind).toBe("ignored");
    expect(convert({ ...base, dataMessage: { timestamp: 9, message: "" } }).kind).toBe("ignored");
    expect(convert(null)).toMatchObject({ kind: "invalid" });
    expect(convert({ timestamp: 9, dataMessage: { message: "x" } })).toMatchObject({
      kind: "invalid",
      reason: expect.stringContaining("sender"),
    });
    expect(convert({ sourceNumber: "+15557654321", dataMessage: { message: "x" } })).toMatchObject({
      kind: "invalid",
      reason: expect.stringContaining("timestamp"),
    });
  });

  it("lists attachments by id with their kind", () => {
    const result = convert({
      sourceNumber: "+15557654321",
      timestamp: 11,
      dataMessage: {
        timestamp: 11,
        attachments: [
          { id: "a1", contentType: "image/jpeg", size: 10 },
          { id: "a2", contentType: "audio/aac", voiceNote: true },
          { id: "a3", contentType: "application/pdf", filename: "x.pdf" },
        ],
      },
    });
    expect(result.kind === "inbound" && result.inbound.media.map((m) => m.kind)).toEqual([
      "image",
      "voice",
      "document",
    ]);
  });
});

describe("parseSignalMessageId", () => {
  it("reads <timestamp>:<author> and a bare timestamp", () => {
    expect(parseSignalMessageId("17:+1555")).toEqual({ timestamp: 17, author: "+1555" });
    expect(parseSignalMessageId("17")).toEqual({ timestamp: 17 });
    expect(parseSignalMessageId("abc")).toBeUndefined();
  });
});
