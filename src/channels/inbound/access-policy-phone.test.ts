// allowFrom entries naming a phone number match a sender whose id is that number in E.164, however
// the entry spells it; ids that are not E.164 (Telegram's numeric ids) compare exactly as before.
import { describe, expect, it } from "vitest";
import type { ChannelInbound } from "../types.js";
import { decideAccess, senderAllowed } from "./access-policy.js";

const dm = (senderId: string): ChannelInbound => ({
  channel: "whatsapp",
  accountId: "personal",
  messageId: "m",
  timestamp: 0,
  sender: { id: senderId },
  peer: { kind: "direct", id: senderId },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
});

describe("phone-number allowFrom entries", () => {
  it.each([
    "+15551234567",
    "15551234567",
    "+1 555 123 4567",
    "+1 (555) 123-4567",
    "0015551234567",
    "whatsapp:+15551234567",
    15551234567,
  ])("%j allows +15551234567", (entry) => {
    expect(senderAllowed([entry], { id: "+15551234567" })).toBe(true);
    const decision = decideAccess({
      message: dm("+15551234567"),
      config: { dmPolicy: "allowlist", allowFrom: [entry] },
      approved: [],
    });
    expect(decision.action).toBe("allow");
  });

  it("another number, or a non-E.164 sender id, does not match by digits", () => {
    expect(senderAllowed(["+1 555 123 4568"], { id: "+15551234567" })).toBe(false);
    expect(senderAllowed(["+15551234567"], { id: "15551234567" })).toBe(false);
    expect(senderAllowed(["+123456789"], { id: "123456789" })).toBe(false);
    const refused = decideAccess({
      message: dm("+15551234567"),
      config: { dmPolicy: "allowlist", allowFrom: ["+1 555 000 0000"] },
      approved: [],
    });
    expect(refused).toEqual({ action: "drop", reason: "sender not in allowFrom" });
  });
});
