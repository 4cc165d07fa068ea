// Inbound through real grammY against the fake Bot API: DMs, groups with and without mentions, forum
// topics, replies and quotes, photos (downloaded) and documents, two bots on one server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../../../test/helpers/fake-telegram.js";
import {
  ALICE,
  asReply,
  entityFor,
  groupMessage,
  privateMessage,
  topicMessage,
  withDocument,
  withPhoto,
} from "../../../test/helpers/fake-telegram-updates.js";
import { type TelegramAccounts, telegramAccounts } from "../../../test/helpers/telegram-account.js";

const TOKEN = "123:main";
const BOT = { id: 9001, username: "pincer_bot", first_name: "Pincer" };

let fake: FakeTelegram;
let accounts: TelegramAccounts;

beforeEach(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TOKEN, BOT);
  accounts = telegramAccounts(fake);
});

afterEach(async () => {
  await accounts.stopAll();
  await fake.close();
});

async function receiveOne(message: Record<string, unknown>) {
  const { recorder } = await accounts.start({ token: TOKEN });
  fake.pushMessage(TOKEN, message);
  const [inbound] = await recorder.waitForReceived(1);
  return inbound!;
}

describe("telegram inbound", () => {
  it("normalizes a DM: direct peer, sender, text, timestamp, account", async () => {
    const inbound = await receiveOne(
      privateMessage({ text: "hello", messageId: 42, date: 1_700_000_123 }),
    );
    expect(inbound).toMatchObject({
      channel: "telegram",
      accountId: "default",
      messageId: "42",
      timestamp: 1_700_000_123_000,
      peer: { kind: "direct", id: "111" },
      sender: { id: "111", name: "Alice", username: "alice" },
      text: "hello",
      mentions: [],
      mentionedSelf: false,
      media: [],
    });
    expect(inbound.parentPeer).toBeUndefined();
    expect(inbound.threadId).toBeUndefined();
    expect(inbound.replyTo).toBeUndefined();
  });

  it("reports the bot identity once getMe answered", async () => {
    const { recorder } = await accounts.start({ token: TOKEN });
    expect(recorder.status()).toMatchObject({
      connected: true,
      identity: { id: "9001", username: "pincer_bot" },
    });
    expect(fake.callsOf("deleteWebhook", TOKEN)).toHaveLength(1);
  });

  it("a group message without a mention is a group peer with mentionedSelf false", async () => {
    const text = "hi @someone_else";
    const inbound = await receiveOne(
      groupMessage({ text, entities: [entityFor(text, "@someone_else", "mention")] }),
    );
    expect(inbound.peer).toEqual({ kind: "group", id: "-1001234567890" });
    expect(inbound.mentions).toEqual(["someone_else"]);
    expect(inbound.mentionedSelf).toBe(false);
  });

  it("an @botusername entity sets mentionedSelf (case-insensitive)", async () => {
    const text = "@Pincer_Bot what time is it?";
    const inbound = await receiveOne(
      groupMessage({
        text,
        type: "group",
        chatId: -42,
        entities: [entityFor(text, "@Pincer_Bot", "mention")],
      }),
    );
    expect(inbound.peer).toEqual({ kind: "group", id: "-42" });
    expect(inbound.mentionedSelf).toBe(true);
  });

  it("a text_mention of the bot and a /command@bot set mentionedSelf", async () => {
    const { recorder } = await accounts.start({ token: TOKEN });
    const mentionText = "Pincer, help";
    fake.pushMessage(
      TOKEN,
      groupMessage({
        text: mentionText,
        entities: [
          entityFor(mentionText, "Pincer", "text_mention", {
            id: 9001,
            first_name: "Pincer",
            is_bot: true,
          }),
        ],
      }),
    );
    const commandText = "/status@pincer_bot";
    fake.pushMessage(
      TOKEN,
      groupMessage({
        text: commandText,
        entities: [entityFor(commandText, commandText, "bot_command")],
      }),
    );
    const [mention, command] = await recorder.waitForReceived(2);
    expect(mention!.mentions).toEqual(["9001"]);
    expect(mention!.mentionedSelf).toBe(true);
    expect(command!.mentionedSelf).toBe(true);
  });

  it("a reply to one of the bot's messages sets mentionedSelf and carries the quoted body", async () => {
    const botMessage = groupMessage({
      text: "I am the bot",
      messageId: 77,
      from: { id: 9001, is_bot: true, first_name: "Pincer", username: "pincer_bot" },
    });
    const inbound = await receiveOne(asReply(groupMessage({ text: "are you sure?" }), botMessage));
    expect(inbound.mentionedSelf).toBe(true);
    expect(inbound.replyTo).toEqual({ id: "77", body: "I am the bot", sender: "Pincer" });
  });

  it("a quote replaces the reply body with the quoted part", async () => {
    const original = privateMessage({ text: "first line\nsecond line", messageId: 5 });
    const inbound = await receiveOne(
      asReply(privateMessage({ text: "this one" }), original, "second line"),
    );
    expect(inbound.replyTo).toEqual({ id: "5", body: "second line", sender: "Alice" });
    expect(inbound.mentionedSelf).toBe(false);
  });

  it("a forum topic message is its own peer with the base group as parent", async () => {
    const inbound = await receiveOne(
      topicMessage({ text: "in topic", chatId: -1001234567890, topicId: 42 }),
    );
    expect(inbound.peer).toEqual({ kind: "group", id: "-1001234567890:topic:42" });
    expect(inbound.parentPeer).toEqual({ kind: "group", id: "-1001234567890" });
    expect(inbound.threadId).toBe("42");
    // The topic's opening service message is not a reply.
    expect(inbound.replyTo).toBeUndefined();
  });

  it("a forum message without a topic id belongs to the General topic (1)", async () => {
    const inbound = await receiveOne(topicMessage({ text: "general", chatId: -1005 }));
    expect(inbound.peer).toEqual({ kind: "group", id: "-1005:topic:1" });
    expect(inbound.threadId).toBe("1");
  });

  it("downloads the largest photo size into data and keeps the caption as text", async () => {
    const bytes = Buffer.from("fake-jpeg-bytes-large");
    fake.addFile(TOKEN, { fileId: "large", filePath: "photos/file_1.jpg", bytes });
    const inbound = await receiveOne(
      withPhoto(privateMessage({}), {
        smallFileId: "small",
        largeFileId: "large",
        largeSize: bytes.length,
        caption: "look",
      }),
    );
    expect(inbound.text).toBe("look");
    expect(inbound.media).toEqual([
      {
        kind: "image",
        mimeType: "image/jpeg",
        fileId: "large",
        size: bytes.length,
        data: bytes.toString("base64"),
      },
    ]);
    expect(fake.callsOf("getFile").map((c) => c.params.file_id)).toEqual(["large"]);
  });

  it("leaves a photo over the media cap undownloaded", async () => {
    const { recorder } = await accounts.start({ token: TOKEN, config: { mediaMaxMb: 1 } });
    fake.pushMessage(
      TOKEN,
      withPhoto(privateMessage({}), {
        smallFileId: "s",
        largeFileId: "huge",
        largeSize: 2 * 1024 * 1024,
      }),
    );
    const [inbound] = await recorder.waitForReceived(1);
    expect(inbound!.media).toEqual([
      { kind: "image", mimeType: "image/jpeg", fileId: "huge", size: 2 * 1024 * 1024 },
    ]);
    expect(fake.callsOf("getFile")).toHaveLength(0);
  });

  it("passes documents on as file id and name", async () => {
    const inbound = await receiveOne(
      withDocument(privateMessage({}), {
        fileId: "doc-1",
        fileName: "report.pdf",
        mimeType: "application/pdf",
        size: 10,
      }),
    );
    expect(inbound.media).toEqual([
      {
        kind: "document",
        fileId: "doc-1",
        fileName: "report.pdf",
        mimeType: "application/pdf",
        size: 10,
      },
    ]);
  });

  it("two bots on one server feed two accounts", async () => {
    fake.addBot("456:alerts", { id: 9002, username: "alerts_bot" });
    const main = await accounts.start({ token: TOKEN, accountId: "default" });
    const alerts = await accounts.start({ token: "456:alerts", accountId: "alerts" });
    fake.pushMessage("456:alerts", privateMessage({ text: "to alerts" }));
    fake.pushMessage(TOKEN, privateMessage({ text: "to main", from: { ...ALICE, id: 222 } }));
    const [fromAlerts] = await alerts.recorder.waitForReceived(1);
    const [fromMain] = await main.recorder.waitForReceived(1);
    expect(fromAlerts).toMatchObject({ accountId: "alerts", text: "to alerts" });
    expect(fromMain).toMatchObject({ accountId: "default", text: "to main", peer: { id: "222" } });
    expect(alerts.recorder.status().identity?.username).toBe("alerts_bot");
    expect(main.recorder.received).toHaveLength(1);
    expect(alerts.recorder.received).toHaveLength(1);
  });
});
