import { describe, expect, it } from "vitest";
import { toDiscordInbound } from "./inbound.js";
import { type DiscordMessage, parseDiscordMessage } from "./message-schema.js";

const SELF = { id: "1100000000000000001", username: "pincer" };

// A guild reply as Discord's Gateway sends it (fields trimmed to those of a real payload).
const GUILD_REPLY = {
  type: 19,
  tts: false,
  timestamp: "2026-03-01T10:00:00.000000+00:00",
  referenced_message: {
    type: 0,
    timestamp: "2026-03-01T09:59:00.000000+00:00",
    id: "1300000000000000001",
    content: "the build is red",
    channel_id: "1400000000000000001",
    author: {
      username: "alice",
      public_flags: 0,
      id: "1500000000000000001",
      global_name: "Alice",
      discriminator: "0",
    },
    attachments: [],
    mentions: [],
    mention_roles: [],
  },
  pinned: false,
  nonce: "1234",
  mentions: [
    {
      username: "pincer",
      id: SELF.id,
      global_name: null,
      discriminator: "0",
      bot: true,
      member: { roles: [] },
    },
  ],
  mention_roles: [],
  mention_everyone: false,
  member: {
    roles: ["1600000000000000001"],
    nick: "Bobby",
    joined_at: "2025-01-01T00:00:00+00:00",
    mute: false,
    deaf: false,
  },
  id: "1300000000000000002",
  flags: 0,
  embeds: [],
  edited_timestamp: null,
  content: `<@${SELF.id}> why?`,
  components: [],
  channel_id: "1400000000000000001",
  author: {
    username: "bob",
    public_flags: 0,
    id: "1500000000000000002",
    global_name: "Bob",
    discriminator: "0",
  },
  attachments: [
    {
      id: "1700000000000000001",
      filename: "log.txt",
      size: 120,
      url: "https://cdn.discordapp.com/attachments/1/2/log.txt",
      proxy_url: "https://media.discordapp.net/attachments/1/2/log.txt",
      content_type: "text/plain; charset=utf-8",
    },
  ],
  guild_id: "1800000000000000001",
};

function parsed(payload: unknown): DiscordMessage {
  const result = parseDiscordMessage(payload);
  if (!result.ok) throw new Error(result.reason);
  return result.message;
}

describe("Discord MESSAGE_CREATE → ChannelInbound", () => {
  it("converts a guild reply: peer, guild, roles, nickname, mention, quote, attachment", () => {
    const result = toDiscordInbound({
      message: parsed(GUILD_REPLY),
      channel: { type: 0, name: "ci" },
      guild: { name: "Pincer Lab", selfRoleIds: [] },
      self: SELF,
      accountId: "default",
      allowBots: false,
    });
    expect(result).toEqual({
      kind: "inbound",
      inbound: {
        channel: "discord",
        accountId: "default",
        messageId: "1300000000000000002",
        timestamp: Date.parse("2026-03-01T10:00:00Z"),
        sender: { id: "1500000000000000002", name: "Bobby", username: "bob" },
        peer: { kind: "channel", id: "1400000000000000001" },
        peerName: "ci",
        text: `<@${SELF.id}> why?`,
        mentions: [SELF.id],
        mentionedSelf: true,
        selfUsername: "pincer",
        media: [
          {
            kind: "document",
            fileName: "log.txt",
            fileId: "1700000000000000001",
            mimeType: "text/plain; charset=utf-8",
            size: 120,
            url: "https://cdn.discordapp.com/attachments/1/2/log.txt",
          },
        ],
        guildId: "1800000000000000001",
        guildName: "Pincer Lab",
        memberRoleIds: ["1600000000000000001"],
        replyTo: { id: "1300000000000000001", body: "the build is red", sender: "Alice" },
      },
    });
  });

  it("a thread message has the thread as peer, its channel as parent, and threadId", () => {
    const result = toDiscordInbound({
      message: parsed({ ...GUILD_REPLY, channel_id: "1400000000000000009" }),
      channel: { type: 11, name: "flaky test", parentId: "1400000000000000001", parentName: "ci" },
      self: SELF,
      accountId: "default",
      allowBots: false,
    });
    expect(result.kind === "inbound" && result.inbound).toMatchObject({
      peer: { kind: "channel", id: "1400000000000000009" },
      peerName: "flaky test",
      parentPeer: { kind: "channel", id: "1400000000000000001" },
      parentPeerName: "ci",
      threadId: "1400000000000000009",
    });
  });

  it("a mention of one of the bot's roles mentions the bot", () => {
    const payload = {
      ...GUILD_REPLY,
      type: 0,
      referenced_message: null,
      mentions: [],
      mention_roles: ["1900000000000000001"],
    };
    const result = toDiscordInbound({
      message: parsed(payload),
      guild: { selfRoleIds: ["1900000000000000001"] },
      self: SELF,
      accountId: "default",
      allowBots: false,
    });
    expect(result.kind === "inbound" && result.inbound.mentionedSelf).toBe(true);
  });

  it("a DM (no guild) is keyed by the user; a group DM by its channel", () => {
    const dm = { ...GUILD_REPLY, guild_id: undefined, member: undefined, channel_type: 1 };
    const direct = toDiscordInbound({
      message: parsed(dm),
      self: SELF,
      accountId: "a",
      allowBots: false,
    });
    expect(direct.kind === "inbound" && direct.inbound.peer).toEqual({
      kind: "direct",
      id: "1500000000000000002",
    });
    expect(direct.kind === "inbound" && direct.inbound.guildId).toBeUndefined();
    const group = toDiscordInbound({
      message: parsed({ ...dm, channel_type: 3 }),
      self: SELF,
      accountId: "a",
      allowBots: false,
    });
    expect(group.kind === "inbound" && group.inbound.peer).toEqual({
      kind: "group",
      id: "1400000000000000001",
    });
  });

  it("ignores its own messages, bots' (unless allowBots), system messages and empty ones", () => {
    const base = { self: SELF, accountId: "a", allowBots: false };
    const own = { ...GUILD_REPLY, author: { id: SELF.id, username: "pincer", bot: true } };
    expect(toDiscordInbound({ ...base, message: parsed(own) })).toEqual({
      kind: "ignored",
      reason: "own message",
    });
    const bot = { ...GUILD_REPLY, author: { id: "2", username: "ci-bot", bot: true } };
    expect(toDiscordInbound({ ...base, message: parsed(bot) }).kind).toBe("ignored");
    expect(toDiscordInbound({ ...base, allowBots: true, message: parsed(bot) }).kind).toBe(
      "inbound",
    );
    const pin = { ...GUILD_REPLY, type: 6 };
    expect(toDiscordInbound({ ...base, message: parsed(pin) }).kind).toBe("ignored");
    const empty = { ...GUILD_REPLY, content: "", attachments: [] };
    expect(toDiscordInbound({ ...base, message: parsed(empty) }).kind).toBe("ignored");
  });

  it("names the malformed field", () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /^message: expected an object/],
      [{ ...GUILD_REPLY, id: 5 }, /^id: expected a snowflake/],
      [{ ...GUILD_REPLY, author: "bob" }, /^author: expected an object/],
      [{ ...GUILD_REPLY, timestamp: "yesterday" }, /^timestamp: expected an ISO date/],
      [{ ...GUILD_REPLY, member: { roles: "admin" } }, /^member.roles: expected an array/],
      [
        { ...GUILD_REPLY, attachments: [{ filename: "x" }] },
        /^attachments\[0\].id: expected a snowflake/,
      ],
      [{ ...GUILD_REPLY, content: 7 }, /^content: expected a string/],
    ];
    for (const [payload, reason] of cases) {
      const result = parseDiscordMessage(payload);
      expect(result.ok ? "ok" : result.reason).toMatch(reason);
    }
  });
});
