import { describe, expect, it } from "vitest";
import type { ChannelInbound } from "../index.js";
import { discordSlug, prefilterDiscordInbound } from "./access-prefilter.js";

function inbound(overrides: Partial<ChannelInbound>): ChannelInbound {
  return {
    channel: "discord",
    accountId: "default",
    messageId: "1",
    timestamp: 0,
    sender: { id: "9" },
    peer: { kind: "group", id: "555" },
    peerName: "Weekend Plans",
    text: "hi",
    mentions: [],
    mentionedSelf: false,
    media: [],
    ...overrides,
  };
}

describe("Discord pre-filter (group DMs)", () => {
  it("slugs names as OpenClaw does", () => {
    expect(discordSlug("#Weekend  Plans")).toBe("weekend-plans");
  });

  it("drops group DMs unless dm.groupEnabled; then only those dm.groupChannels names", () => {
    const group = inbound({});
    expect(prefilterDiscordInbound(group, { groupDmEnabled: false })).toMatch(
      /dm.groupEnabled is off/,
    );
    expect(prefilterDiscordInbound(group, { groupDmEnabled: true })).toBeUndefined();
    expect(
      prefilterDiscordInbound(group, { groupDmEnabled: true, groupDmChannels: ["555"] }),
    ).toBeUndefined();
    const bySlug = { groupDmEnabled: true, groupDmChannels: ["weekend-plans"] };
    expect(prefilterDiscordInbound(group, bySlug)).toBeUndefined();
    const other = { groupDmEnabled: true, groupDmChannels: ["777"] };
    expect(prefilterDiscordInbound(group, other)).toMatch(/555 is not in dm.groupChannels/);
  });

  it("leaves DMs and guild channels to the host's access policy", () => {
    const settings = { groupDmEnabled: false };
    expect(
      prefilterDiscordInbound(inbound({ peer: { kind: "direct", id: "9" } }), settings),
    ).toBeUndefined();
    const guild = inbound({ peer: { kind: "channel", id: "1" }, guildId: "2" });
    expect(prefilterDiscordInbound(guild, settings)).toBeUndefined();
  });
});
