// WhatsApp Web inbound through the adapter and the fake socket (real proto.WebMessageInfo shapes):
// what reaches `receive`, what is ignored, read receipts and the ack reaction.
import { afterEach, describe, expect, it } from "vitest";
import { dmText, waMessage } from "../../../../test/helpers/fake-whatsapp-socket.js";
import {
  OWN_NUMBER,
  type StartedWhatsAppAccount,
  startWhatsAppAccount,
} from "../../../../test/helpers/whatsapp-account.js";

const GROUP = "120363041234567890@g.us";
const OWN_JID = `${OWN_NUMBER.slice(1)}@s.whatsapp.net`;
const OWN_LID = `9${OWN_NUMBER.slice(1)}@lid`;

let started: StartedWhatsAppAccount | undefined;
afterEach(async () => {
  await started?.runtime.stop();
  started = undefined;
});

async function account(config: Record<string, unknown> = {}) {
  started = await startWhatsAppAccount({ config });
  return { ...started, socket: started.fake.latest("default")! };
}

describe("WhatsApp Web inbound", () => {
  it("a DM is peer direct by E.164 with the push name; a LID chat uses its phone alt", async () => {
    const { socket, test } = await account();
    socket.deliver(dmText("+15551234567", "hello"));
    socket.deliver(
      waMessage({
        chat: "777000111@lid",
        remoteJidAlt: "15557654321@s.whatsapp.net",
        pushName: "Bob",
        message: { extendedTextMessage: { text: "via lid" } },
      }),
      waMessage({ chat: "888000222@lid", message: { conversation: "no alt" } }),
    );
    const [first, lid, bare] = await test.waitForReceived(3);
    expect(first).toMatchObject({
      channel: "whatsapp",
      accountId: "default",
      peer: { kind: "direct", id: "+15551234567" },
      sender: { id: "+15551234567", name: "Alice" },
      text: "hello",
      mentionedSelf: false,
    });
    expect(first!.timestamp).toBeGreaterThan(1_700_000_000_000);
    expect(lid).toMatchObject({ peer: { id: "+15557654321" }, sender: { id: "+15557654321" } });
    expect(bare).toMatchObject({ peer: { id: "888000222@lid" }, text: "no alt" });
  });

  it("a group message: peer is the group, sender the participant (LID resolved by metadata)", async () => {
    const { socket, test, fake } = await account();
    fake.groups.set(GROUP, {
      id: GROUP,
      subject: "Family",
      owner: undefined,
      participants: [{ id: "555111@lid", phoneNumber: "15553330000@s.whatsapp.net" }],
    });
    socket.deliver(
      waMessage({
        chat: GROUP,
        participant: "15552220000:4@s.whatsapp.net",
        message: {
          extendedTextMessage: {
            text: "@me look",
            contextInfo: { mentionedJid: [OWN_JID, "15559990000@s.whatsapp.net"] },
          },
        },
      }),
      waMessage({ chat: GROUP, participant: "555111@lid", message: { conversation: "hi all" } }),
      waMessage({
        chat: GROUP,
        participant: "555222@lid",
        participantAlt: "15554440000@s.whatsapp.net",
        message: {
          extendedTextMessage: { text: "lid mention", contextInfo: { mentionedJid: [OWN_LID] } },
        },
      }),
    );
    const [mention, resolved, alt] = await test.waitForReceived(3);
    expect(mention).toMatchObject({
      peer: { kind: "group", id: GROUP },
      sender: { id: "+15552220000" },
      mentionedSelf: true,
      mentions: ["+15550001111", "+15559990000"],
    });
    expect(resolved).toMatchObject({ sender: { id: "+15553330000" }, mentionedSelf: false });
    expect(alt).toMatchObject({ sender: { id: "+15554440000" }, mentionedSelf: true });
    expect(socket.groupQueries).toEqual([GROUP]);
  });

  it("a quoted reply carries the quoted text and sender; a reply to the account is a mention", async () => {
    const { socket, test } = await account();
    socket.deliver(
      waMessage({
        chat: GROUP,
        participant: "15552220000@s.whatsapp.net",
        message: {
          extendedTextMessage: {
            text: "agreed",
            contextInfo: {
              stanzaId: "ORIG1",
              participant: "15558880000@s.whatsapp.net",
              quotedMessage: { conversation: "pizza tonight?" },
            },
          },
        },
      }),
      waMessage({
        chat: GROUP,
        participant: "15552220000@s.whatsapp.net",
        message: {
          extendedTextMessage: {
            text: "and you?",
            contextInfo: {
              stanzaId: "BOT1",
              participant: OWN_JID,
              quotedMessage: { imageMessage: { caption: "the chart" } },
            },
          },
        },
      }),
    );
    const [quote, toBot] = await test.waitForReceived(2);
    expect(quote).toMatchObject({
      replyTo: { id: "ORIG1", body: "pizza tonight?", sender: "+15558880000" },
      mentionedSelf: false,
    });
    expect(toBot).toMatchObject({
      replyTo: { id: "BOT1", body: "the chart" },
      mentionedSelf: true,
    });
  });

  it("media: a small image is inlined, a document keeps its file id; captions are the text", async () => {
    const { socket, test, fake } = await account();
    const image = waMessage({
      chat: "15551234567@s.whatsapp.net",
      message: { imageMessage: { caption: "look", mimetype: "image/jpeg", fileLength: 3 } },
    });
    fake.media.set(image.key.id!, Buffer.from([1, 2, 3]));
    const doc = waMessage({
      chat: "15551234567@s.whatsapp.net",
      message: {
        documentWithCaptionMessage: {
          message: {
            documentMessage: {
              fileName: "report.pdf",
              mimetype: "application/pdf",
              fileLength: 2048,
              caption: "the report",
            },
          },
        },
      },
    });
    const voice = waMessage({
      chat: "15551234567@s.whatsapp.net",
      message: { audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true } },
    });
    socket.deliver(image, doc, voice);
    const [img, document, audio] = await test.waitForReceived(3);
    expect(img).toMatchObject({ text: "look", media: [{ kind: "image", data: "AQID", size: 3 }] });
    expect(document).toMatchObject({
      text: "the report",
      media: [{ kind: "document", fileName: "report.pdf", size: 2048, fileId: doc.key.id }],
    });
    expect(document!.media[0]!.data).toBeUndefined();
    expect(audio).toMatchObject({ text: "", media: [{ kind: "voice" }] });
  });

  it("ignores status broadcasts, newsletters, protocol traffic, reactions, poll votes and other fromMe", async () => {
    const { socket, test } = await account();
    socket.deliver(
      waMessage({
        chat: "status@broadcast",
        participant: "15551234567@s.whatsapp.net",
        message: { conversation: "story" },
      }),
      waMessage({ chat: "12036399@newsletter", message: { conversation: "news" } }),
      waMessage({ chat: "15551234567@s.whatsapp.net", message: { protocolMessage: { type: 0 } } }),
      waMessage({
        chat: "15551234567@s.whatsapp.net",
        message: { reactionMessage: { text: "👍", key: { id: "X" } } },
      }),
      waMessage({ chat: "15551234567@s.whatsapp.net", message: { pollUpdateMessage: {} } }),
      waMessage({
        chat: "15551234567@s.whatsapp.net",
        fromMe: true,
        message: { conversation: "mine" },
      }),
      dmText("+15551234567", "the real one"),
    );
    const [only] = await test.waitForReceived(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(test.received).toHaveLength(1);
    expect(only!.text).toBe("the real one");
  });

  it("self-chat: with selfChatMode, own messages in the own chat are fromSelf; own replies are not", async () => {
    const { socket, test, runtime } = await account({ selfChatMode: true });
    socket.deliver(
      waMessage({ chat: OWN_JID, fromMe: true, message: { conversation: "note to self" } }),
    );
    const [note] = await test.waitForReceived(1);
    expect(note).toMatchObject({
      fromSelf: true,
      peer: { kind: "direct", id: OWN_NUMBER },
      sender: { id: OWN_NUMBER },
    });
    const sent = await runtime.send({
      target: { accountId: "default", peer: { kind: "direct", id: OWN_NUMBER } },
      text: "reply",
    });
    expect(sent.ok).toBe(true);
    const echo = socket.sends.at(-1)!;
    socket.deliver(
      waMessage({ chat: OWN_JID, fromMe: true, id: echo.id, message: { conversation: "reply" } }),
    );
    socket.deliver(dmText("+15551234567", "after"));
    await test.waitForReceived(2);
    expect(test.received.map((m) => m.text)).toEqual(["note to self", "after"]);
  });

  it("self-chat is off without selfChatMode unless allowFrom names the own number", async () => {
    const off = await account();
    off.socket.deliver(
      waMessage({ chat: OWN_JID, fromMe: true, message: { conversation: "ignored" } }),
    );
    off.socket.deliver(dmText("+15551234567", "marker"));
    await off.test.waitForReceived(1);
    expect(off.test.received.map((m) => m.text)).toEqual(["marker"]);
    await off.runtime.stop();
    const on = await account({ allowFrom: ["+1 555 000 1111"] });
    on.socket.deliver(
      waMessage({ chat: OWN_JID, fromMe: true, message: { conversation: "counted" } }),
    );
    const [counted] = await on.test.waitForReceived(1);
    expect(counted).toMatchObject({ fromSelf: true, text: "counted" });
  });

  it("marks accepted messages read and reacts with ackReaction (groups: mentions only)", async () => {
    const { socket, test } = await account({
      ackReaction: { emoji: "👀", direct: true, group: "mentions" },
    });
    const dm = dmText("+15551234567", "hi");
    const plain = waMessage({
      chat: GROUP,
      participant: "15552220000@s.whatsapp.net",
      message: { conversation: "chatter" },
    });
    const mention = waMessage({
      chat: GROUP,
      participant: "15552220000@s.whatsapp.net",
      message: { extendedTextMessage: { text: "hey", contextInfo: { mentionedJid: [OWN_JID] } } },
    });
    socket.deliver(dm, plain, mention);
    await test.waitForReceived(3);
    await started!.fake.waitUntil(
      () => socket.sends.length === 2 && socket.reads.length === 3,
      "acks",
    );
    expect(socket.reads.flat().map((k) => k.id)).toEqual([dm.key.id, plain.key.id, mention.key.id]);
    expect(socket.sends.map((s) => [s.jid, s.content])).toEqual([
      ["15551234567@s.whatsapp.net", { react: { text: "👀", key: dm.key } }],
      [GROUP, { react: { text: "👀", key: mention.key } }],
    ]);
    expect(test.syncs.length).toBeGreaterThan(0);
  });

  it("sendReadReceipts false sends no read receipt", async () => {
    const { socket, test } = await account({ sendReadReceipts: false });
    socket.deliver(dmText("+15551234567", "quiet"));
    await test.waitForReceived(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(socket.reads).toEqual([]);
  });

  it("a receive that rejects is handed on again (WhatsApp does not redeliver)", async () => {
    const { socket, test } = await account();
    let failures = 1;
    test.onReceive = async () => {
      if (failures-- > 0) throw new Error("disk full");
    };
    socket.deliver(dmText("+15551234567", "retry me"));
    const [message] = await test.waitForReceived(1);
    expect(message!.text).toBe("retry me");
    expect(test.reports.some((r) => r.lastError?.includes("disk full"))).toBe(true);
  });
});
