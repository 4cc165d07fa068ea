// Session lifecycle policies over the fake Telegram Bot API through the real gateway, with an
// injected clock: a DM session idle past its window starts a new session on the next message (the
// model is sent only that message), and one still inside the window keeps its history.
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { ALICE, privateMessage } from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";

const TOKEN = "111:main-token";
const BOT = { id: 111000, username: "pincer_main_bot" };
const MIN = 60_000;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

async function start(session: OpenClawConfig["session"]) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(TOKEN, BOT);
  const clock = { t: Date.now(), now: () => clock.t };
  box = await createGatewaySandbox({
    config: () => ({
      session,
      channels: {
        telegram: {
          apiRoot: fake.apiRoot,
          accounts: { default: { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: [ALICE.id] } },
        },
      } as OpenClawConfig["channels"],
    }),
    options: { clock },
  });
  for (let i = 0; i < 4; i++) box.fake.text("ok");
  await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  return { sandbox: box, fake, clock };
}

/** Sends a DM and waits for its reply (the nth sendMessage to Alice). */
async function converse(fake: FakeTelegram, text: string, nth: number) {
  fake.pushMessage(TOKEN, privateMessage({ text }));
  const sends = () =>
    fake.callsOf("sendMessage", TOKEN).filter((c) => Number(c.params.chat_id) === ALICE.id);
  await fake.waitForCall("sendMessage", (c) => sends().indexOf(c) === nth - 1);
}

function userTexts(sandbox: GatewaySandbox, index: number): string {
  const body = sandbox.fake.chatRequests[index]?.body as {
    messages: Array<{ role: string; content: unknown }>;
  };
  return JSON.stringify(body.messages.filter((m) => m.role === "user"));
}

describe("session lifecycle policies over Telegram", () => {
  it("an idle DM session resets on the next message; one inside the window keeps its history", async () => {
    const { sandbox, fake, clock } = await start({ reset: { mode: "idle", idleMinutes: 30 } });
    await converse(fake, "first message", 1);
    clock.t += 20 * MIN;
    await converse(fake, "second message", 2);
    expect(userTexts(sandbox, 1)).toContain("first message");
    clock.t += 31 * MIN;
    await converse(fake, "third message", 3);
    expect(sandbox.fake.chatRequests).toHaveLength(3);
    expect(userTexts(sandbox, 2)).toContain("third message");
    expect(userTexts(sandbox, 2)).not.toContain("second message");
  });
});
