import { describe, expect, it } from "vitest";
import { mentionedUserIds, slackTextToPlain, toSlackInbound } from "./inbound.js";

const self = { userId: "UBOT", botId: "BBOT" };
const base = { accountId: "work", self, allowBots: false, teamId: "T1" };

/** A channel message as Slack's Events API sends it (`message.channels`). */
const channelMessage = {
  client_msg_id: "4f6c-…",
  type: "message",
  text: "<@UBOT> ship it, cc <@UCAROL|carol>",
  user: "UALICE",
  ts: "1700000000.123456",
  team: "T1",
  channel: "C123",
  event_ts: "1700000000.123456",
  channel_type: "channel",
};

describe("toSlackInbound", () => {
  it("a channel message: peer channel, team, native mention of the bot, other mentions", () => {
    const result = toSlackInbound({ ...base, event: channelMessage, channelName: "eng" });
    expect(result).toMatchObject({
      kind: "inbound",
      inbound: {
        channel: "slack",
        accountId: "work",
        messageId: "1700000000.123456",
        timestamp: 1700000000123,
        sender: { id: "UALICE" },
        peer: { kind: "channel", id: "C123" },
        peerName: "eng",
        teamId: "T1",
        text: "@UBOT ship it, cc @UCAROL",
        mentions: ["UCAROL"],
        mentionedSelf: true,
        media: [],
      },
    });
    if (result.kind !== "inbound") throw new Error("not inbound");
    expect(result.inbound.threadId).toBeUndefined();
    expect(result.inbound.parentPeer).toBeUndefined();
  });

  it("a thread reply keeps the channel as peer and parent, threadId = the thread's ts", () => {
    const result = toSlackInbound({
      ...base,
      event: { ...channelMessage, ts: "1700000001.000200", thread_ts: "1700000000.123456" },
      channelName: "eng",
    });
    expect(result).toMatchObject({
      inbound: {
        peer: { kind: "channel", id: "C123" },
        parentPeer: { kind: "channel", id: "C123" },
        parentPeerName: "eng",
        threadId: "1700000000.123456",
      },
    });
  });

  it("thread replies carry the account's thread settings; top-level messages do not", () => {
    const thread = {
      historyScope: "channel" as const,
      initialHistoryLimit: 5,
      inheritParent: true,
    };
    const reply = toSlackInbound({
      ...base,
      thread,
      event: { ...channelMessage, ts: "1700000001.000200", thread_ts: "1700000000.123456" },
    });
    expect(reply).toMatchObject({ inbound: { threadSession: thread } });
    const top = toSlackInbound({ ...base, thread, event: channelMessage });
    if (top.kind !== "inbound") throw new Error("not inbound");
    expect(top.inbound.threadSession).toBeUndefined();
  });

  it("DMs are direct with the user as peer; mpim is a group; private channels are channels", () => {
    const im = toSlackInbound({
      ...base,
      event: { ...channelMessage, channel: "D1", channel_type: "im", text: "hi" },
    });
    expect(im).toMatchObject({
      inbound: { peer: { kind: "direct", id: "UALICE" }, mentionedSelf: false },
    });
    const mpim = toSlackInbound({
      ...base,
      event: { ...channelMessage, channel: "G1", channel_type: "mpim" },
    });
    expect(mpim).toMatchObject({ inbound: { peer: { kind: "group", id: "G1" } } });
    const group = toSlackInbound({
      ...base,
      event: { ...channelMessage, channel: "G2", channel_type: "group" },
    });
    expect(group).toMatchObject({ inbound: { peer: { kind: "channel", id: "G2" } } });
  });

  it("app_mention is a native mention even without <@BOT> in the text", () => {
    const event = { type: "app_mention", user: "UALICE", text: "hey", ts: "1.2", channel: "C1" };
    expect(toSlackInbound({ ...base, event })).toMatchObject({
      inbound: { mentionedSelf: true, peer: { kind: "channel", id: "C1" } },
    });
  });

  it("files become media with id, url_private, name, mimetype and size", () => {
    const event = {
      ...channelMessage,
      subtype: "file_share",
      files: [
        {
          id: "F1",
          name: "a.png",
          mimetype: "image/png",
          size: 42,
          url_private: "https://files.slack.com/a.png",
        },
        {
          id: "F2",
          name: "b.pdf",
          mimetype: "application/pdf",
          size: 7,
          url_private: "https://files.slack.com/b.pdf",
        },
      ],
    };
    expect(toSlackInbound({ ...base, event })).toMatchObject({
      inbound: {
        media: [
          {
            kind: "image",
            fileId: "F1",
            url: "https://files.slack.com/a.png",
            fileName: "a.png",
            mimeType: "image/png",
            size: 42,
          },
          {
            kind: "document",
            fileId: "F2",
            fileName: "b.pdf",
            mimeType: "application/pdf",
            size: 7,
          },
        ],
      },
    });
  });

  it("bots: own posts always ignored, others unless allowBots", () => {
    const other = { ...channelMessage, subtype: "bot_message", bot_id: "BOTHER", user: undefined };
    expect(toSlackInbound({ ...base, event: other })).toEqual({ kind: "ignored" });
    expect(toSlackInbound({ ...base, allowBots: true, event: other })).toMatchObject({
      inbound: { sender: { id: "BOTHER" } },
    });
    const own = { ...channelMessage, bot_id: "BBOT" };
    expect(toSlackInbound({ ...base, allowBots: true, event: own })).toEqual({ kind: "ignored" });
    const ownUser = { ...channelMessage, user: "UBOT" };
    expect(toSlackInbound({ ...base, allowBots: true, event: ownUser })).toEqual({
      kind: "ignored",
    });
  });

  it("service subtypes are ignored; missing fields are invalid naming the field", () => {
    for (const subtype of ["message_changed", "message_deleted", "channel_join"])
      expect(toSlackInbound({ ...base, event: { ...channelMessage, subtype } })).toEqual({
        kind: "ignored",
      });
    expect(toSlackInbound({ ...base, event: { ...channelMessage, channel: undefined } })).toEqual({
      kind: "invalid",
      reason: "event.channel is missing",
    });
    expect(toSlackInbound({ ...base, event: { ...channelMessage, ts: "x" } })).toMatchObject({
      kind: "invalid",
      reason: expect.stringContaining("event.ts"),
    });
    expect(
      toSlackInbound({ ...base, event: { ...channelMessage, user: undefined } }),
    ).toMatchObject({
      kind: "invalid",
      reason: expect.stringContaining("event.user"),
    });
    expect(toSlackInbound({ ...base, event: "nope" })).toMatchObject({ kind: "invalid" });
    expect(toSlackInbound({ ...base, event: { type: "reaction_added" } })).toEqual({
      kind: "ignored",
    });
  });
});

describe("Slack text", () => {
  it("markup to plain text", () => {
    expect(
      slackTextToPlain(
        "<@U1> see <#C2|general>, <https://x.dev|docs> <https://y.dev> <!here> a &lt; b &amp; c",
      ),
    ).toBe("@U1 see #general, docs (https://x.dev) https://y.dev @here a < b & c");
  });
  it("mentioned ids, once each", () => {
    expect(mentionedUserIds("<@U1> <@U2|bob> <@U1>")).toEqual(["U1", "U2"]);
  });
});
