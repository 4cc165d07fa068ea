import { describe, expect, it } from "vitest";
import type { ChannelInbound } from "../types.js";
import { inboundSessionPatch, parsePeerTarget, peerTarget } from "./session-origin.js";

const message: ChannelInbound = {
  channel: "discord",
  accountId: "default",
  messageId: "m1",
  timestamp: 5,
  sender: { id: "u1", name: "Ann" },
  peer: { kind: "channel", id: "t1" },
  parentPeer: { kind: "channel", id: "c1" },
  threadId: "t1",
  text: "hi",
  mentions: [],
  mentionedSelf: true,
  media: [],
};

describe("send targets", () => {
  it("reads direct:, dm:, user: as a DM, group: and channel: as themselves, a bare id as a DM", () => {
    expect(parsePeerTarget("user:123")).toEqual({ kind: "direct", id: "123" });
    expect(parsePeerTarget("USER:U7")).toEqual({ kind: "direct", id: "U7" });
    expect(parsePeerTarget("dm:9")).toEqual({ kind: "direct", id: "9" });
    expect(parsePeerTarget("channel:C1")).toEqual({ kind: "channel", id: "C1" });
    expect(parsePeerTarget("group:-100")).toEqual({ kind: "group", id: "-100" });
    expect(parsePeerTarget(" 42 ")).toEqual({ kind: "direct", id: "42" });
    expect(parsePeerTarget(peerTarget({ kind: "channel", id: "c2" }))).toEqual({
      kind: "channel",
      id: "c2",
    });
  });
});

describe("the session entry patch", () => {
  it("records the routing tier in a new origin, and leaves an existing origin alone", () => {
    const patch = inboundSessionPatch(message, undefined, "binding.peer.parent");
    expect(patch.origin).toMatchObject({
      provider: "discord",
      to: "channel:t1",
      threadId: "t1",
      matchedBy: "binding.peer.parent",
    });
    expect(patch.deliveryContext).toEqual({
      channel: "discord",
      to: "channel:t1",
      accountId: "default",
      threadId: "t1",
    });
    const again = inboundSessionPatch(
      message,
      { origin: { provider: "discord" } } as never,
      "default",
    );
    expect(again.origin).toBeUndefined();
    expect(inboundSessionPatch(message, undefined).origin).not.toHaveProperty("matchedBy");
  });
});
