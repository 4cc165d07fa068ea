import { describe, expect, it } from "vitest";
import type { ChannelAccountConfig, ChannelInbound } from "../types.js";
import { decideAccess } from "./access-policy.js";
import { gateMention } from "./mention-gate.js";
import { slugName } from "./workspace-rules.js";

const base = (extra: Partial<ChannelInbound>): ChannelInbound => ({
  channel: "discord",
  accountId: "default",
  messageId: "m1",
  timestamp: 0,
  sender: { id: "u1", username: "ann" },
  peer: { kind: "channel", id: "c1" },
  text: "hi",
  mentions: [],
  mentionedSelf: false,
  media: [],
  ...extra,
});
const guildMessage = (extra: Partial<ChannelInbound> = {}) =>
  base({ guildId: "g1", guildName: "Friends Of Claw", peerName: "help", ...extra });
const slackMessage = (extra: Partial<ChannelInbound> = {}) =>
  base({ channel: "slack", teamId: "T1", peer: { kind: "channel", id: "C1" }, ...extra });
const decide = (message: ChannelInbound, config: ChannelAccountConfig) =>
  decideAccess({ message, config, approved: [] });

describe("Discord guild rules", () => {
  it("allowlist (default): a guild needs an entry of its own or '*'", () => {
    expect(decide(guildMessage(), { guilds: {} })).toMatchObject({
      action: "drop",
      reason: "not in guilds allowlist",
    });
    expect(decide(guildMessage(), { guilds: { g1: {} } }).action).toBe("allow");
    expect(decide(guildMessage(), { guilds: { "*": {} } }).action).toBe("allow");
    expect(
      decide(guildMessage({ guildId: "g2", guildName: "x" }), { guilds: { g1: {} } }),
    ).toMatchObject({ action: "drop" });
    expect(decide(guildMessage(), { groupPolicy: "open", guilds: {} }).action).toBe("allow");
    expect(decide(guildMessage(), { groupPolicy: "disabled", guilds: { g1: {} } })).toMatchObject({
      action: "drop",
      reason: "groupPolicy disabled",
    });
  });

  it("matches a guild by its slug key or its entry's slug", () => {
    expect(decide(guildMessage(), { guilds: { "friends-of-claw": {} } }).action).toBe("allow");
    expect(decide(guildMessage(), { guilds: { "999": { slug: "friends-of-claw" } } }).action).toBe(
      "allow",
    );
    expect(slugName("#General Chat")).toBe("general-chat");
  });

  it("a channels map denies what it does not name; allow/enabled false deny; threads follow the parent", () => {
    const config = {
      guilds: {
        g1: { channels: { help: { allow: true }, c9: { allow: false }, c8: { enabled: false } } },
      },
    };
    expect(decide(guildMessage(), config).action).toBe("allow");
    expect(
      decide(guildMessage({ peer: { kind: "channel", id: "c2" }, peerName: "random" }), config),
    ).toMatchObject({ action: "drop", reason: "channel not in guilds.g1.channels" });
    expect(
      decide(guildMessage({ peer: { kind: "channel", id: "c9" }, peerName: "x" }), config),
    ).toMatchObject({ action: "drop", reason: expect.stringContaining("denied") });
    expect(
      decide(guildMessage({ peer: { kind: "channel", id: "c8" }, peerName: "y" }), config),
    ).toMatchObject({ action: "drop", reason: expect.stringContaining("disabled") });
    const thread = guildMessage({
      peer: { kind: "channel", id: "t1" },
      peerName: "a question",
      parentPeer: { kind: "channel", id: "c1" },
      parentPeerName: "help",
      threadId: "t1",
    });
    expect(decide(thread, config).action).toBe("allow");
    expect(
      decide(thread, {
        guilds: { g1: { channels: { help: { allow: true }, t1: { allow: false } } } },
      }).action,
    ).toBe("drop");
    expect(decide(guildMessage(), { guilds: { g1: { enabled: false } } })).toMatchObject({
      action: "drop",
      reason: expect.stringContaining("guild disabled"),
    });
  });

  it("users and roles (the channel's over the guild's) admit a sender by id or by any role", () => {
    const config = {
      guilds: { g1: { users: ["discord:u1"], channels: { "*": {}, c5: { roles: ["r2"] } } } },
    };
    expect(decide(guildMessage(), config).action).toBe("allow");
    expect(decide(guildMessage({ sender: { id: "u2" } }), config)).toMatchObject({
      action: "drop",
      reason: "sender not allowed here",
    });
    const c5 = { peer: { kind: "channel" as const, id: "c5" }, peerName: "ops" };
    expect(decide(guildMessage({ ...c5, memberRoleIds: ["r1", "r2"] }), config).action).toBe(
      "allow",
    );
    expect(decide(guildMessage({ ...c5, memberRoleIds: ["r1"] }), config).action).toBe("drop");
    expect(decide(guildMessage(c5), config).action).toBe("drop");
    const both = { guilds: { g1: { users: ["u9"], roles: [7] } } };
    expect(decide(guildMessage({ memberRoleIds: ["7"] }), both).action).toBe("allow");
    expect(decide(guildMessage({ sender: { id: "u9" } }), both).action).toBe("allow");
  });

  it("without users/roles, groupAllowFrom decides the sender and may admit an unlisted guild", () => {
    expect(decide(guildMessage(), { guilds: { g1: {} }, groupAllowFrom: ["u2"] }).action).toBe(
      "drop",
    );
    expect(decide(guildMessage(), { guilds: {}, groupAllowFrom: ["u1"] }).action).toBe("allow");
  });

  it("requireMention: channel rule over guild over the channel config over true", () => {
    const gate = (message: ChannelInbound, config: ChannelAccountConfig) => {
      const decision = decide(message, config);
      if (decision.action !== "allow") throw new Error(`not allowed: ${JSON.stringify(decision)}`);
      return gateMention({ message, config, group: decision.group, patterns: [] });
    };
    expect(gate(guildMessage(), { guilds: { g1: {} } })).toBe("context");
    expect(gate(guildMessage(), { guilds: { g1: { requireMention: false } } })).toBe("trigger");
    expect(
      gate(guildMessage(), {
        guilds: { g1: { requireMention: false, channels: { help: { requireMention: true } } } },
      }),
    ).toBe("context");
    expect(gate(guildMessage(), { requireMention: false, guilds: { g1: {} } })).toBe("trigger");
    expect(gate(guildMessage({ mentionedSelf: true }), { guilds: { g1: {} } })).toBe("trigger");
  });

  it("a guild without a guilds map falls back to the groups rules", () => {
    expect(decide(guildMessage(), {}).action).toBe("drop");
    expect(decide(guildMessage(), { groups: { c1: {} } }).action).toBe("allow");
  });
});

describe("Slack channel rules", () => {
  it("channels.<id | name | '*'> admit; unlisted channels are denied; threads use their channel", () => {
    const config = { channels: { C1: { allow: true }, general: {}, C3: { allow: false } } };
    expect(decide(slackMessage(), config).action).toBe("allow");
    expect(
      decide(slackMessage({ peer: { kind: "channel", id: "C2" }, peerName: "General" }), config)
        .action,
    ).toBe("allow");
    expect(decide(slackMessage({ peer: { kind: "channel", id: "C4" } }), config)).toMatchObject({
      action: "drop",
      reason: "channel not in channels",
    });
    expect(decide(slackMessage({ peer: { kind: "channel", id: "C3" } }), config).action).toBe(
      "drop",
    );
    expect(
      decide(
        slackMessage({ threadId: "1700.1", parentPeer: { kind: "channel", id: "C1" } }),
        config,
      ).action,
    ).toBe("allow");
    expect(decide(slackMessage(), { channels: { "*": { users: ["U7"] } } }).action).toBe("drop");
    expect(
      decide(slackMessage({ sender: { id: "U7" } }), { channels: { "*": { users: ["slack:U7"] } } })
        .action,
    ).toBe("allow");
  });

  it("without a channels map the groups rules apply", () => {
    expect(decide(slackMessage(), {}).action).toBe("drop");
    expect(decide(slackMessage(), { groupPolicy: "open" }).action).toBe("allow");
  });
});

describe("the older dm block", () => {
  const direct = base({ peer: { kind: "direct", id: "u1" } });
  it("dm.enabled false drops, dm.policy and dm.allowFrom stand in for dmPolicy / allowFrom", () => {
    expect(
      decide(direct, { dm: { enabled: false }, dmPolicy: "open", allowFrom: ["*"] }),
    ).toMatchObject({
      action: "drop",
      reason: "dm.enabled false",
    });
    expect(decide(direct, { dm: { policy: "allowlist" } }).action).toBe("drop");
    expect(decide(direct, { dm: { policy: "allowlist", allowFrom: ["u1"] } }).action).toBe("allow");
    expect(decide(direct, { dm: { policy: "open", allowFrom: ["*"] } }).action).toBe("allow");
    expect(
      decide(direct, { dmPolicy: "allowlist", dm: { policy: "open", allowFrom: ["*"] } }).action,
    ).toBe("allow");
    expect(decide(direct, { dmPolicy: "disabled", dm: { policy: "open" } }).action).toBe("drop");
    expect(decide(direct, {})).toEqual({ action: "pair" });
  });

  it("dm.groupEnabled admits group DMs (the adapter filters dm.groupChannels)", () => {
    const groupDm = base({ peer: { kind: "group", id: "gdm1" } });
    expect(decide(groupDm, {}).action).toBe("drop");
    expect(decide(groupDm, { dm: { groupEnabled: true } }).action).toBe("allow");
  });
});
