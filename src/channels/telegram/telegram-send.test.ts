// Outbound through real grammY against the fake Bot API: HTML text, topics and replies, the 4096 safety
// split, the plain-text fallback, failures as values (429/500/400/refused/timeout), media, typing, probe.
import { rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeTelegram, startFakeTelegram } from "../../../test/helpers/fake-telegram.js";
import { type TelegramAccounts, telegramAccounts } from "../../../test/helpers/telegram-account.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { silentLogger } from "../../lib/logger.js";
import type { OutboundTarget } from "../index.js";
import { createTelegramAdapter } from "./index.js";

const TOKEN = "123:main";
const DM: OutboundTarget = { accountId: "default", peer: { kind: "direct", id: "111" } };

let fake: FakeTelegram;
let accounts: TelegramAccounts;

beforeEach(async () => {
  fake = await startFakeTelegram();
  fake.addBot(TOKEN, { id: 9001, username: "pincer_bot" });
  accounts = telegramAccounts(fake);
});

afterEach(async () => {
  await accounts.stopAll();
  await fake.close();
});

async function runtime(config: Record<string, unknown> = {}) {
  return (await accounts.start({ token: TOKEN, config })).runtime;
}

describe("telegram send", () => {
  it("sends Markdown as Telegram HTML and returns the message id", async () => {
    const result = await (await runtime()).send({ target: DM, text: "**hi** <you> & `x`" });
    expect(result).toEqual({ ok: true, receipt: { messageId: expect.any(String) } });
    const [call] = fake.callsOf("sendMessage");
    expect(call!.params).toMatchObject({
      chat_id: 111,
      text: "<b>hi</b> &lt;you&gt; &amp; <code>x</code>",
      parse_mode: "HTML",
    });
    expect(call!.params.reply_parameters).toBeUndefined();
  });

  it("sends into the same forum topic and replies with reply_parameters", async () => {
    const target: OutboundTarget = {
      accountId: "default",
      peer: { kind: "group", id: "-1001234567890:topic:42" },
      threadId: "42",
      replyToId: "555",
    };
    await (await runtime()).send({ target, text: "answer" });
    expect(fake.callsOf("sendMessage")[0]!.params).toMatchObject({
      chat_id: -1001234567890,
      message_thread_id: 42,
      reply_parameters: { message_id: 555, allow_sending_without_reply: true },
    });
  });

  it("sends to the General topic without message_thread_id", async () => {
    const target: OutboundTarget = {
      accountId: "default",
      peer: { kind: "group", id: "-1005:topic:1" },
      threadId: "1",
    };
    await (await runtime()).send({ target, text: "general" });
    const params = fake.callsOf("sendMessage")[0]!.params;
    expect(params.chat_id).toBe(-1005);
    expect(params.message_thread_id).toBeUndefined();
  });

  it("splits text over 4096 characters after formatting, each part within the limit, nothing lost", async () => {
    const paragraph = "word & more <tags> ".repeat(30).trim(); // grows by escaping
    const text = Array.from({ length: 20 }, (_, i) => `${i}: ${paragraph}`).join("\n");
    const result = await (await runtime()).send({ target: { ...DM, replyToId: "9" }, text });
    expect(result.ok).toBe(true);
    const calls = fake.callsOf("sendMessage");
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls) expect(String(call.params.text).length).toBeLessThanOrEqual(4096);
    const joined = calls.map((c) => String(c.params.text)).join("\n");
    expect(joined).toBe(text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"));
    // Only the first part replies.
    expect(calls.filter((c) => c.params.reply_parameters !== undefined)).toHaveLength(1);
  });

  it("falls back to plain text when Telegram cannot parse the entities", async () => {
    fake.failNext("sendMessage", 1, {
      kind: "status",
      code: 400,
      description: "Bad Request: can't parse entities: unexpected end tag",
    });
    const result = await (await runtime()).send({ target: DM, text: "**bold** and *it" });
    expect(result.ok).toBe(true);
    const calls = fake.callsOf("sendMessage");
    expect(calls).toHaveLength(2);
    expect(calls[1]!.params).toMatchObject({ text: "**bold** and *it" });
    expect(calls[1]!.params.parse_mode).toBeUndefined();
  });

  it("429 is a retryable failure carrying retry_after", async () => {
    fake.failNext("sendMessage", 1, {
      kind: "status",
      code: 429,
      description: "Too Many Requests: retry after 7",
      retryAfter: 7,
    });
    const result = await (await runtime()).send({ target: DM, text: "x" });
    expect(result).toEqual({
      ok: false,
      failure: {
        message: "Too Many Requests: retry after 7",
        retryable: true,
        retryAfterMs: 7000,
        code: "telegram_429",
      },
    });
  });

  it("500 is retryable; 400 and 403 are final with Telegram's description", async () => {
    const rt = await runtime();
    fake.failNext("sendMessage", 1, {
      kind: "status",
      code: 500,
      description: "Internal Server Error",
    });
    fake.failNext("sendMessage", 1, {
      kind: "status",
      code: 403,
      description: "Forbidden: bot was blocked by the user",
    });
    fake.failNext("sendMessage", 1, {
      kind: "status",
      code: 400,
      description: "Bad Request: chat not found",
    });
    const [server, blocked, missing] = [
      await rt.send({ target: DM, text: "a" }),
      await rt.send({ target: DM, text: "b" }),
      await rt.send({ target: DM, text: "c" }),
    ];
    expect(server).toMatchObject({ ok: false, failure: { retryable: true, code: "telegram_500" } });
    expect(blocked).toEqual({
      ok: false,
      failure: {
        message: "Forbidden: bot was blocked by the user",
        retryable: false,
        code: "telegram_403",
      },
    });
    expect(missing).toMatchObject({
      ok: false,
      failure: { message: "Bad Request: chat not found", retryable: false },
    });
  });

  it("a refused connection is retryable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const adapter = createTelegramAdapter();
    const dead = await adapter.start({
      channel: "telegram",
      accountId: "default",
      config: { botToken: TOKEN, apiRoot: `http://127.0.0.1:${port}` },
      stateDir: makeTempDir("pincer-tg-"),
      env: {},
      log: silentLogger,
      receive: async () => {},
      syncInbound: () => {},
      report: () => {},
      signal: new AbortController().signal,
    });
    const result = await dead.send({ target: DM, text: "x" });
    await dead.stop();
    expect(result).toMatchObject({
      ok: false,
      failure: { retryable: true, code: "connection_failed" },
    });
  });

  it("a timeout after the request went out is final (the outcome is unknown)", async () => {
    const rt = await runtime({ timeoutSeconds: 0.3 });
    fake.failNext("sendMessage", 1, { kind: "hang" });
    const result = await rt.send({ target: DM, text: "x" });
    expect(result).toMatchObject({ ok: false, failure: { retryable: false, code: "timeout" } });
  });

  it("sends photos by URL and documents by local path, with captions, into the topic", async () => {
    const dir = makeTempDir("pincer-tg-media-");
    const path = join(dir, "notes.txt");
    writeFileSync(path, "some notes");
    try {
      const target: OutboundTarget = {
        accountId: "default",
        peer: { kind: "group", id: "-100:topic:7" },
      };
      const result = await (await runtime()).send({
        target,
        text: "here",
        media: [{ url: "https://example.com/cat.png", caption: "a *cat*" }, { path }],
      });
      expect(result.ok).toBe(true);
      expect(fake.callsOf("sendPhoto")[0]!.params).toMatchObject({
        chat_id: -100,
        photo: "https://example.com/cat.png",
        caption: "a <i>cat</i>",
        parse_mode: "HTML",
        message_thread_id: 7,
      });
      const doc = fake.callsOf("sendDocument")[0]!;
      expect(doc.params.message_thread_id).toBe("7"); // multipart fields arrive as text
      expect(Object.values(doc.files)).toEqual([{ fileName: "notes.txt", size: 10 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a missing local file is a final failure without any call", async () => {
    const result = await (await runtime()).send({
      target: DM,
      media: [{ path: "/nonexistent/x.png" }],
    });
    expect(result).toMatchObject({ ok: false, failure: { retryable: false, code: "bad_media" } });
    expect(fake.callsOf("sendPhoto")).toHaveLength(0);
  });

  it("sendTyping sends a typing chat action into the topic; probe returns identity and latency", async () => {
    const rt = await runtime();
    await rt.sendTyping!({ accountId: "default", peer: { kind: "group", id: "-100:topic:3" } });
    expect(fake.callsOf("sendChatAction")[0]!.params).toEqual({
      chat_id: -100,
      action: "typing",
      message_thread_id: 3,
    });
    const probe = await rt.probe();
    expect(probe).toMatchObject({ ok: true, identity: { id: "9001", username: "pincer_bot" } });
    expect(probe.ok && probe.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("probe reports an unauthorized token as an error value", async () => {
    const rt = (await accounts.start({ token: "999:unknown", waitConnected: false })).runtime;
    const probe = await rt.probe();
    expect(probe).toEqual({ ok: false, error: expect.stringContaining("401") });
  });
});
