import { describe, expect, it } from "vitest";
import type { ChannelInbound } from "../types.js";
import { decideAccess, senderAllowed } from "./access-policy.js";

const dm = (senderId = "42", extra: Partial<ChannelInbound> = {}): ChannelInbound => ({
  channel: "telegram",
  accountId: "default",
  messageId: "m",
  timestamp: 0,
  sender: { id: senderId, username: "ann" },
  peer: { kind: "direct", id: senderId },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
  ...extra,
});
const group = (id = "-100", senderId = "42") => dm(senderId, { peer: { kind: "group", id } });

describe("DM policy", () => {
  it("pairing (default): unknown senders pair, allowFrom and approved senders pass", () => {
    expect(decideAccess({ message: dm(), config: {}, approved: [] })).toEqual({ action: "pair" });
    expect(
      decideAccess({ message: dm(), config: { allowFrom: ["tg:42"] }, approved: [] }).action,
    ).toBe("allow");
    expect(decideAccess({ message: dm(), config: {}, approved: ["42"] }).action).toBe("allow");
  });

  it("allowlist drops strangers; open needs '*'; disabled drops all", () => {
    expect(
      decideAccess({ message: dm(), config: { dmPolicy: "allowlist" }, approved: [] }).action,
    ).toBe("drop");
    expect(
      decideAccess({
        message: dm(),
        config: { dmPolicy: "allowlist", allowFrom: ["@Ann"] },
        approved: [],
      }).action,
    ).toBe("allow");
    expect(
      decideAccess({ message: dm(), config: { dmPolicy: "open" }, approved: [] }),
    ).toMatchObject({
      action: "drop",
      reason: expect.stringContaining('"*"'),
    });
    expect(
      decideAccess({ message: dm(), config: { dmPolicy: "open", allowFrom: ["*"] }, approved: [] })
        .action,
    ).toBe("allow");
    expect(
      decideAccess({
        message: dm(),
        config: { dmPolicy: "disabled", allowFrom: ["*"] },
        approved: ["42"],
      }).action,
    ).toBe("drop");
  });
});

describe("group policy", () => {
  it("a forum topic takes its base group's entry (own id first, '*' last)", () => {
    const topic = dm("42", {
      peer: { kind: "group", id: "-100:topic:7" },
      parentPeer: { kind: "group", id: "-100" },
    });
    const listed = { groups: { "-100": { requireMention: false } } };
    expect(decideAccess({ message: topic, config: listed, approved: [] })).toEqual({
      action: "allow",
      group: { requireMention: false },
    });
    const own = { groups: { "-100:topic:7": { requireMention: true }, "-100": {} } };
    expect(decideAccess({ message: topic, config: own, approved: [] })).toEqual({
      action: "allow",
      group: { requireMention: true },
    });
    const other = { groups: { "-200": {} } };
    expect(decideAccess({ message: topic, config: other, approved: [] }).action).toBe("drop");
  });

  it("allowlist (default) needs the group in `groups` (or '*') or the sender in groupAllowFrom", () => {
    expect(decideAccess({ message: group(), config: {}, approved: [] }).action).toBe("drop");
    expect(
      decideAccess({ message: group(), config: { groups: { "-100": {} } }, approved: [] }).action,
    ).toBe("allow");
    expect(
      decideAccess({ message: group(), config: { groups: { "*": {} } }, approved: [] }).action,
    ).toBe("allow");
    expect(
      decideAccess({ message: group("-200"), config: { groups: { "-100": {} } }, approved: [] })
        .action,
    ).toBe("drop");
    expect(
      decideAccess({ message: group(), config: { groupAllowFrom: ["42"] }, approved: [] }).action,
    ).toBe("allow");
    expect(
      decideAccess({
        message: group(),
        config: { groups: { "*": {} }, groupAllowFrom: ["7"] },
        approved: [],
      }).action,
    ).toBe("drop");
  });

  it("open admits any group, disabled none; a disabled group entry drops; defaults apply", () => {
    expect(
      decideAccess({ message: group(), config: { groupPolicy: "open" }, approved: [] }).action,
    ).toBe("allow");
    expect(
      decideAccess({
        message: group(),
        config: { groupPolicy: "disabled", groups: { "*": {} } },
        approved: [],
      }).action,
    ).toBe("drop");
    expect(
      decideAccess({
        message: group(),
        config: { groupPolicy: "open", groups: { "-100": { enabled: false } } },
        approved: [],
      }).action,
    ).toBe("drop");
    expect(
      decideAccess({ message: group(), config: {}, approved: [], defaultGroupPolicy: "open" })
        .action,
    ).toBe("allow");
  });

  it("lets the account's own messages through (mention gating decides)", () => {
    expect(
      decideAccess({
        message: dm("42", { fromSelf: true }),
        config: { dmPolicy: "disabled" },
        approved: [],
      }).action,
    ).toBe("allow");
  });

  it("matches ids, prefixed ids, usernames and '*'", () => {
    const sender = { id: "42", username: "Ann" };
    expect(senderAllowed(["telegram:42"], sender)).toBe(true);
    expect(senderAllowed(["@ann"], sender)).toBe(true);
    expect(senderAllowed([42], sender)).toBe(true);
    expect(senderAllowed(["*"], sender)).toBe(true);
    expect(senderAllowed(["43", "@bob"], sender)).toBe(false);
    expect(senderAllowed(undefined, sender)).toBe(false);
  });
});

describe("access groups in channel allowlists", () => {
  const accessGroups = {
    ops: { type: "message.senders" as const, members: { telegram: ["42"], whatsapp: ["7"] } },
    team: { type: "message.senders" as const, members: { "*": ["@ann"] } },
  };

  it("allowFrom / groupAllowFrom / a group's allowFrom name the group's members on this channel", () => {
    const dmConfig = { dmPolicy: "allowlist", allowFrom: ["accessGroup:ops"] };
    expect(
      decideAccess({ message: dm(), config: dmConfig, approved: [], accessGroups }).action,
    ).toBe("allow");
    expect(
      decideAccess({ message: dm("7"), config: dmConfig, approved: [], accessGroups }).action,
    ).toBe("drop");
    const groupConfig = { groupPolicy: "allowlist", groupAllowFrom: ["accessGroup:team"] };
    expect(
      decideAccess({ message: group(), config: groupConfig, approved: [], accessGroups }).action,
    ).toBe("allow");
    const entryConfig = { groups: { "-100": { allowFrom: ["accessGroup:ops"] } } };
    expect(
      decideAccess({ message: group("-100", "9"), config: entryConfig, approved: [], accessGroups })
        .action,
    ).toBe("drop");
    expect(
      decideAccess({
        message: group("-100", "42"),
        config: entryConfig,
        approved: [],
        accessGroups,
      }).action,
    ).toBe("allow");
  });

  it("fails closed: an unknown group, no groups, or a sender whose id is the group's name", () => {
    const config = { dmPolicy: "allowlist", allowFrom: ["accessGroup:ops"] };
    expect(decideAccess({ message: dm(), config, approved: [] }).action).toBe("drop");
    const named = dm("ops", { sender: { id: "ops", username: "ops" } });
    expect(decideAccess({ message: named, config, approved: [], accessGroups }).action).toBe(
      "drop",
    );
    expect(senderAllowed(["accessGroup:missing"], { id: "missing" })).toBe(false);
    expect(senderAllowed(["accessGroup:"], { id: "" })).toBe(false);
  });
});
