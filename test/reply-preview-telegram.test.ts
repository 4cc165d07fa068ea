// Reply preview streaming over the fake Telegram Bot API through the real gateway and the fake model:
// with `streaming: "partial"` a long reply appears as one message that is edited as the model writes
// (editMessageText) and ends as the exact reply — one sendMessage, never a second copy; with
// streaming off (the default) the reply is one sendMessage and nothing is edited.
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, privateMessage } from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";

const TOKEN = "131:preview-token";
const BOT = { id: 131000, username: "pincer_preview_bot" };
const REPLY =
  "Here is a longer answer that the model writes in pieces, so the preview shows it growing.";

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

async function start(streaming: unknown) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(TOKEN, BOT);
  const account = { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: [ALICE.id] };
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        telegram: {
          apiRoot: fake.apiRoot,
          accounts: { default: streaming === undefined ? account : { ...account, streaming } },
        },
      } as OpenClawConfig["channels"],
    }),
  });
  await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  return { sandbox: box, fake };
}

const toAlice = (fake: FakeTelegram, method: string) =>
  fake.callsOf(method, TOKEN).filter((c) => Number(c.params.chat_id) === ALICE.id);

describe("reply preview streaming over Telegram", () => {
  it("partial: one message, edited as the reply grows, ends as the exact reply", async () => {
    const { sandbox, fake } = await start("partial");
    sandbox.fake.text(REPLY, { chunks: 12, delayMs: 150 });
    fake.pushMessage(TOKEN, privateMessage({ text: "tell me" }));
    await fake.waitForCall(
      "editMessageText",
      (c) => Number(c.params.chat_id) === ALICE.id && String(c.params.text) === REPLY,
    );
    const sent = toAlice(fake, "sendMessage");
    expect(sent).toHaveLength(1);
    const edits = toAlice(fake, "editMessageText");
    expect(edits.every((c) => c.params.message_id !== undefined)).toBe(true);
    expect(new Set(edits.map((c) => String(c.params.message_id))).size).toBe(1);
    // The preview started as a prefix of the reply and only grew.
    const texts = [String(sent[0]!.params.text), ...edits.map((c) => String(c.params.text))];
    for (const text of texts) expect(REPLY.startsWith(text.replace(/…$/, ""))).toBe(true);
    expect(texts.at(-1)).toBe(REPLY);
    // A second turn previews in a message of its own.
    sandbox.fake.text(`${REPLY} Again.`, { chunks: 6, delayMs: 100 });
    fake.pushMessage(TOKEN, privateMessage({ text: "again" }));
    await fake.waitForCall("editMessageText", (c) => String(c.params.text) === `${REPLY} Again.`);
    expect(toAlice(fake, "sendMessage")).toHaveLength(2);
  });

  it("off by default: the reply is one sendMessage and nothing is edited", async () => {
    const { sandbox, fake } = await start(undefined);
    sandbox.fake.text(REPLY, { chunks: 6, delayMs: 50 });
    fake.pushMessage(TOKEN, privateMessage({ text: "tell me" }));
    await fake.waitForCall("sendMessage", (c) => String(c.params.text) === REPLY);
    expect(toAlice(fake, "sendMessage")).toHaveLength(1);
    expect(toAlice(fake, "editMessageText")).toHaveLength(0);
  });

  it("a short reply is sent once, without a preview", async () => {
    const { sandbox, fake } = await start(true);
    sandbox.fake.text("Sure.", { chunks: 2, delayMs: 20 });
    fake.pushMessage(TOKEN, privateMessage({ text: "ok?" }));
    await fake.waitForCall("sendMessage", (c) => String(c.params.text) === "Sure.");
    expect(toAlice(fake, "editMessageText")).toHaveLength(0);
  });
});
