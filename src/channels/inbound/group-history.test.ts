import { describe, expect, it } from "vitest";
import { createGroupHistory, prependHistory, resolveHistoryLimit } from "./group-history.js";
import { formatInboundBody, replyContextBlock } from "./reply-context.js";

describe("group history", () => {
  it("keeps at most `limit` entries per group and hands them out once", () => {
    const history = createGroupHistory();
    for (const body of ["a", "b", "c"])
      history.record("g", { sender: "Ann", body, timestamp: 0 }, 2);
    history.record("h", { sender: "Bo", body: "x", timestamp: 0 }, 2);
    history.record("z", { sender: "Bo", body: "x", timestamp: 0 }, 0);
    const taken = history.take("g");
    expect(taken.map((e) => e.body)).toEqual(["b", "c"]);
    expect(history.take("g")).toEqual([]);
    expect(history.groups).toBe(1);
    expect(prependHistory(taken, "Bo: @bot?")).toBe(
      "[Chat messages since your last reply - for context]\nAnn: b\nAnn: c\n\n[Current message - respond to this]\nBo: @bot?",
    );
    expect(prependHistory([], "same")).toBe("same");
  });

  it("limit: group, then channel, then messages.groupChat, else 50", () => {
    const cfg = { messages: { groupChat: { historyLimit: 7 } } };
    expect(
      resolveHistoryLimit({ cfg, config: { historyLimit: 3 }, group: { historyLimit: 1 } }),
    ).toBe(1);
    expect(resolveHistoryLimit({ cfg, config: { historyLimit: 3 } })).toBe(3);
    expect(resolveHistoryLimit({ cfg, config: {} })).toBe(7);
    expect(resolveHistoryLimit({ cfg: {}, config: {} })).toBe(50);
  });
});

describe("reply context", () => {
  const base = {
    channel: "telegram",
    accountId: "default",
    messageId: "2",
    timestamp: 0,
    sender: { id: "9", name: "Ann" },
    peer: { kind: "direct" as const, id: "9" },
    text: "agreed",
    mentions: [],
    mentionedSelf: false,
    media: [],
  };

  it("adds a [Replying to <sender>: <body>] block, the same on every channel", () => {
    const quoted = { ...base, replyTo: { id: "1", sender: "Bo", body: "pizza?" } };
    expect(formatInboundBody(quoted)).toBe("agreed\n\n[Replying to Bo: pizza?]");
    expect(formatInboundBody({ ...quoted, channel: "slack" })).toBe(formatInboundBody(quoted));
    expect(replyContextBlock({ ...base, replyTo: { id: "1" } })).toBe("[Replying to unknown]");
    expect(replyContextBlock(base)).toBeUndefined();
  });

  it("prefixes the sender in groups", () => {
    expect(formatInboundBody({ ...base, peer: { kind: "group", id: "g" } })).toBe("Ann: agreed");
    expect(
      formatInboundBody({
        ...base,
        sender: { id: "9", username: "ann" },
        peer: { kind: "group", id: "g" },
      }),
    ).toBe("@ann: agreed");
  });
});
