// WhatsApp Web outbound through the adapter and the fake socket: markup, chunking to
// textChunkLimit, quoted replies, media with captions, typing, and failures as honest values.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dmText } from "../../../../test/helpers/fake-whatsapp-socket.js";
import { makeTempDir } from "../../../../test/helpers/temp-cleanup.js";
import {
  type StartedWhatsAppAccount,
  startWhatsAppAccount,
} from "../../../../test/helpers/whatsapp-account.js";

const BOB = "+15551234567";
const BOB_JID = "15551234567@s.whatsapp.net";

let started: StartedWhatsAppAccount | undefined;
afterEach(async () => {
  await started?.runtime.stop();
  started = undefined;
});

async function account(config: Record<string, unknown> = {}) {
  started = await startWhatsAppAccount({ config });
  return { ...started, socket: started.fake.latest("default")! };
}

const to = (id: string, replyToId?: string) => ({
  accountId: "default",
  peer: { kind: "direct" as const, id },
  ...(replyToId ? { replyToId } : {}),
});

describe("WhatsApp Web outbound", () => {
  it("renders Markdown to WhatsApp markup and quotes the message it answers", async () => {
    const { socket, test, runtime } = await account();
    const incoming = dmText(BOB, "question");
    socket.deliver(incoming);
    const [message] = await test.waitForReceived(1);
    const result = await runtime.send({
      target: to(BOB, message!.messageId),
      text: "**Yes**, _really_ ~~no~~ `code`",
    });
    expect(result).toEqual({ ok: true, receipt: { messageId: socket.sends[0]!.id } });
    expect(socket.sends[0]).toMatchObject({
      jid: BOB_JID,
      content: { text: "*Yes*, _really_ ~no~ `code`" },
    });
    expect(socket.sends[0]!.options?.quoted?.key?.id).toBe(incoming.key.id);
    expect(test.status().lastOutboundAt).toBeTypeOf("number");
  });

  it("any E.164 spelling or a group JID is a target; anything else is a non-retryable failure", async () => {
    const { socket, runtime } = await account();
    await runtime.send({ target: to("+1 (555) 123-4567"), text: "a" });
    await runtime.send({ target: to("120363041234567890@g.us"), text: "b" });
    expect(socket.sends.map((s) => s.jid)).toEqual([BOB_JID, "120363041234567890@g.us"]);
    const bad = await runtime.send({ target: to("bob"), text: "c" });
    expect(bad).toMatchObject({ ok: false, failure: { retryable: false, code: "bad_target" } });
    expect(!bad.ok && bad.failure.message).toContain('"bob"');
    expect(socket.sends).toHaveLength(2);
  });

  it("cuts text longer than textChunkLimit into several messages", async () => {
    const { socket, runtime } = await account({ textChunkLimit: 20 });
    await runtime.send({ target: to(BOB), text: "one two three four five six seven eight nine" });
    const texts = socket.sends.map((s) => (s.content as { text: string }).text);
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(20);
    expect(texts.join(" ").replace(/\s+/g, " ")).toBe(
      "one two three four five six seven eight nine",
    );
  });

  it("sends media by URL and by path with captions, as image / document / audio", async () => {
    const { socket, runtime } = await account();
    const dir = makeTempDir("pincer-wa-media-");
    const pdf = join(dir, "report.pdf");
    writeFileSync(pdf, "%PDF-1.4");
    const result = await runtime.send({
      target: to(BOB),
      media: [
        { url: "https://example.com/cat.jpg", caption: "**cat**" },
        { path: pdf, caption: "the report" },
        { url: "https://example.com/note.ogg", kind: "voice" },
      ],
    });
    expect(result.ok).toBe(true);
    expect(socket.sends.map((s) => s.content)).toEqual([
      { image: { url: "https://example.com/cat.jpg" }, caption: "*cat*" },
      {
        document: { url: pdf },
        mimetype: "application/pdf",
        fileName: "report.pdf",
        caption: "the report",
      },
      {
        audio: { url: "https://example.com/note.ogg" },
        mimetype: "audio/ogg; codecs=opus",
        ptt: true,
      },
    ]);
    const missing = await runtime.send({
      target: to(BOB),
      media: [{ path: join(dir, "gone.png") }],
    });
    expect(missing).toMatchObject({ ok: false, failure: { retryable: false, code: "bad_media" } });
  });

  it("typing is composing, and paused once the reply is out", async () => {
    const { socket, runtime } = await account();
    await runtime.sendTyping!(to(BOB));
    await runtime.send({ target: to(BOB), text: "done" });
    expect(socket.presence).toEqual([
      { type: "composing", jid: BOB_JID },
      { type: "paused", jid: BOB_JID },
    ]);
  });

  it("a closed connection is retryable; another send error is uncertain; a partial send is final", async () => {
    const { socket, runtime } = await account();
    socket.failNextSend = Object.assign(new Error("Connection Closed"), {
      output: { statusCode: 428 },
    });
    const closed = await runtime.send({ target: to(BOB), text: "x" });
    expect(closed).toMatchObject({
      ok: false,
      failure: { retryable: true, code: "not_connected" },
    });
    socket.failNextSend = new Error("Timed Out");
    const timedOut = await runtime.send({ target: to(BOB), text: "y" });
    expect(timedOut).toMatchObject({ ok: false, failure: { retryable: false, uncertain: true } });
    const partial = await runtime.send({
      target: to(BOB),
      text: "caption first",
      media: [{ path: "relative/file.png" }],
    });
    expect(partial).toMatchObject({ ok: false, failure: { retryable: false, code: "bad_media" } });
    expect(!partial.ok && partial.failure.message).toMatch(/^1 of 2 parts sent/);
  });
});
