import { describe, expect, it } from "vitest";
import { planReplyMessages } from "./outbound-plan.js";

const target = {
  accountId: "a",
  peer: { kind: "group" as const, id: "g" },
  threadId: "7",
  replyToId: "in-1",
};
const payload = (text: string, media: string[] = [], replyTo?: string) => ({
  text,
  media: media.map((ref) => (ref.startsWith("/") ? { path: ref } : { url: ref })),
  voice: false,
  ...(replyTo ? { replyTo } : {}),
});

describe("planReplyMessages", () => {
  it("addresses every message to the origin's account, peer and thread; quotes the first (default)", () => {
    const long = `${"a".repeat(30)}\n\n${"b".repeat(30)}`;
    const out = planReplyMessages({ payloads: [payload(long)], target, maxTextLength: 40 });
    expect(out.map((m) => m.text)).toEqual(["a".repeat(30), "b".repeat(30)]);
    expect(out[0]!.target).toEqual(target);
    expect(out[1]!.target).toEqual({ accountId: "a", peer: target.peer, threadId: "7" });
  });

  it("replyToMode all / off, and an explicit [[reply_to]] wins", () => {
    const two = [payload("x"), payload("y")];
    expect(
      planReplyMessages({ payloads: two, target, maxTextLength: 10, replyToMode: "all" }).map(
        (m) => m.target.replyToId,
      ),
    ).toEqual(["in-1", "in-1"]);
    expect(
      planReplyMessages({ payloads: two, target, maxTextLength: 10, replyToMode: "off" }).map(
        (m) => m.target.replyToId,
      ),
    ).toEqual([undefined, undefined]);
    expect(
      planReplyMessages({
        payloads: [payload("z", [], "99")],
        target,
        maxTextLength: 10,
        replyToMode: "off",
      })[0]!.target.replyToId,
    ).toBe("99");
    expect(
      planReplyMessages({
        payloads: [payload("z", [], "current")],
        target,
        maxTextLength: 10,
        replyToMode: "off",
      })[0]!.target.replyToId,
    ).toBe("in-1");
  });

  it("sends media (URLs and paths) before the text; appends URLs when the platform has no media", () => {
    const out = planReplyMessages({
      payloads: [payload("see", ["https://x/y.png", "/tmp/a.pdf"])],
      target,
      maxTextLength: 100,
    });
    expect(out[0]!.media).toEqual([{ url: "https://x/y.png" }, { path: "/tmp/a.pdf" }]);
    expect(out[1]!.text).toBe("see");
    const plain = planReplyMessages({
      payloads: [payload("see", ["https://x/y.png", "/ws/local.png"])],
      target,
      maxTextLength: 100,
      media: false,
    });
    expect(plain).toHaveLength(1);
    expect(plain[0]!.text).toBe("see\nhttps://x/y.png");
  });

  it("plans nothing for a silent (empty) reply", () => {
    expect(planReplyMessages({ payloads: [], target, maxTextLength: 10 })).toEqual([]);
    expect(planReplyMessages({ payloads: [payload("  ")], target, maxTextLength: 10 })).toEqual([]);
  });
});
