import { describe, expect, it } from "vitest";
import { jidToE164, jidToPeerId, normalizeE164, peerIdToJid, whatsAppJidKind } from "./peer-id.js";

describe("normalizeE164", () => {
  it.each([
    ["+15551234567", "+15551234567"],
    ["15551234567", "+15551234567"],
    ["+1 (555) 123-4567", "+15551234567"],
    ["0015551234567", "+15551234567"],
    ["whatsapp:+15551234567", "+15551234567"],
    [15551234567, "+15551234567"],
    ["15551234567@s.whatsapp.net", "+15551234567"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeE164(input)).toBe(expected);
  });

  it.each(["", "+", "12345", "+1234567890123456", "abc", "+1555abc4567", "123@g.us"])(
    "refuses %j",
    (input) => {
      expect(normalizeE164(input)).toBeUndefined();
    },
  );
});

describe("JIDs", () => {
  it("drops device and agent suffixes of user JIDs", () => {
    expect(jidToE164("15551234567:12@s.whatsapp.net")).toBe("+15551234567");
    expect(jidToE164("15551234567_1:3@s.whatsapp.net")).toBe("+15551234567");
    expect(jidToE164("15551234567@c.us")).toBe("+15551234567");
  });

  it("keeps groups and LIDs as JIDs", () => {
    expect(jidToPeerId("120363041234567890@g.us")).toBe("120363041234567890@g.us");
    expect(jidToPeerId("987654321012345@lid")).toBe("987654321012345@lid");
    expect(jidToE164("120363041234567890@g.us")).toBeUndefined();
  });

  it("names each kind", () => {
    expect(whatsAppJidKind("status@broadcast")).toBe("status");
    expect(whatsAppJidKind("1234@broadcast")).toBe("broadcast");
    expect(whatsAppJidKind("1@newsletter")).toBe("newsletter");
    expect(whatsAppJidKind("1@lid")).toBe("lid");
    expect(whatsAppJidKind("1@g.us")).toBe("group");
    expect(whatsAppJidKind("1@s.whatsapp.net")).toBe("user");
    expect(whatsAppJidKind("1@example.com")).toBe("other");
  });

  it("turns peer ids and typed targets into JIDs", () => {
    expect(peerIdToJid("+15551234567")).toEqual({ ok: true, jid: "15551234567@s.whatsapp.net" });
    expect(peerIdToJid("1 555 123 4567")).toEqual({ ok: true, jid: "15551234567@s.whatsapp.net" });
    expect(peerIdToJid("15551234567:4@s.whatsapp.net")).toEqual({
      ok: true,
      jid: "15551234567@s.whatsapp.net",
    });
    expect(peerIdToJid("120363041234567890@g.us")).toEqual({
      ok: true,
      jid: "120363041234567890@g.us",
    });
    const bad = peerIdToJid("alice");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain("alice");
    expect(peerIdToJid("status@broadcast").ok).toBe(false);
  });
});
