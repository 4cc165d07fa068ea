import { describe, expect, it } from "vitest";
import type { ChannelInbound } from "../types.js";
import { createInboundDedupe } from "./redelivery-filter.js";

const message = (over: Partial<ChannelInbound> = {}): ChannelInbound => ({
  channel: "telegram",
  accountId: "default",
  messageId: "1",
  timestamp: 0,
  sender: { id: "u" },
  peer: { kind: "direct", id: "u" },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
  ...over,
});

describe("inbound dedupe", () => {
  it("processes a redelivered message once, keyed by channel, account, peer and id", () => {
    const dedupe = createInboundDedupe();
    expect(dedupe.firstSeen(message())).toBe(true);
    expect(dedupe.firstSeen(message())).toBe(false);
    expect(dedupe.firstSeen(message({ accountId: "b" }))).toBe(true);
    expect(dedupe.firstSeen(message({ channel: "slack" }))).toBe(true);
    expect(dedupe.firstSeen(message({ peer: { kind: "group", id: "u" } }))).toBe(true);
    expect(dedupe.firstSeen(message({ messageId: "2" }))).toBe(true);
  });

  it("forgets ids after the TTL and beyond the bound", () => {
    let now = 0;
    const dedupe = createInboundDedupe({ ttlMs: 100, max: 2, now: () => now });
    dedupe.firstSeen(message({ messageId: "a" }));
    now = 150;
    expect(dedupe.firstSeen(message({ messageId: "a" }))).toBe(true);
    dedupe.firstSeen(message({ messageId: "b" }));
    dedupe.firstSeen(message({ messageId: "c" }));
    expect(dedupe.size).toBeLessThanOrEqual(2);
    expect(dedupe.firstSeen(message({ messageId: "a" }))).toBe(true);
  });
});
