// In-chat commands over the fake Telegram Bot API through the real gateway: a DM `/status` is
// answered (quoting it) without any request reaching the fake model and its message is settled in
// the inbound journal; `/new` resets the DM session; `/stop` aborts a streaming turn; in a group a
// command must be addressed (`/status@bot`), one addressed to another bot is not ours, and an
// unauthorized sender's `/reset` is refused while an allowed sender's resets.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import {
  ALICE,
  entityFor,
  type FakeUser,
  groupMessage,
  privateMessage,
} from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";

const TOKEN = "111:main-token";
const BOT = { id: 111000, username: "pincer_main_bot" };
const BOB: FakeUser = { id: 333, is_bot: false, first_name: "Bob", username: "bob" };
const GROUP_ID = -100111;
const GROUP_KEY = `agent:main:telegram:group:${GROUP_ID}`;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

async function start(account: Record<string, unknown>) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(TOKEN, BOT);
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        telegram: { apiRoot: fake.apiRoot, accounts: { default: { botToken: TOKEN, ...account } } },
      } as OpenClawConfig["channels"],
    }),
  });
  await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  return { sandbox: box, fake };
}

/** Resolves with the `nth` (1-based) sendMessage to a chat. */
function waitForSend(fake: FakeTelegram, chatId: number, nth = 1) {
  const sends = () =>
    fake.callsOf("sendMessage", TOKEN).filter((c) => Number(c.params.chat_id) === chatId);
  return fake.waitForCall("sendMessage", (c) => sends().indexOf(c) === nth - 1);
}

function journalLines(sandbox: GatewaySandbox): Array<Record<string, unknown>> {
  const file = join(sandbox.stateDir, "channels", "inbound-journal.jsonl");
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls `check` until it holds (5 s bound). */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function addressed(text: string, from: FakeUser = ALICE) {
  const command = text.split(" ")[0]!;
  return groupMessage({
    chatId: GROUP_ID,
    from,
    text,
    entities: [entityFor(text, command, "bot_command")],
  });
}

describe("chat commands over Telegram", () => {
  it("answers a DM /status without the model, settles it, and /new resets the session", async () => {
    const { sandbox, fake } = await start({ dmPolicy: "allowlist", allowFrom: [ALICE.id] });
    const status = privateMessage({ text: "/status" });
    fake.pushMessage(TOKEN, status);
    const reply = await waitForSend(fake, ALICE.id);
    expect(String(reply.params.text)).toContain("Agent: main");
    expect(String(reply.params.text)).toContain("Session: agent:main:main");
    expect(reply.params).toMatchObject({ reply_parameters: { message_id: status.message_id } });
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    await waitUntil(
      () =>
        journalLines(sandbox).some(
          (line) =>
            line.type === "settled" &&
            String(line.key).endsWith(`\u0000${status.message_id}`) &&
            line.outcome === "replied",
        ),
      "the /status message settled as replied",
    );

    sandbox.fake.text("hello back");
    fake.pushMessage(TOKEN, privateMessage({ text: "hello" }));
    await waitForSend(fake, ALICE.id, 2);
    const store = sandbox.gw.core.runtime.stores.forAgent("main");
    const before = store.get("agent:main:main")?.sessionId;
    fake.pushMessage(TOKEN, privateMessage({ text: "/new" }));
    const fresh = await waitForSend(fake, ALICE.id, 3);
    const after = store.get("agent:main:main")?.sessionId;
    expect(after).not.toBe(before);
    expect(String(fresh.params.text)).toContain(`New session started (id ${after})`);
    expect(sandbox.fake.chatRequests).toHaveLength(1);
  });

  it("/stop aborts the turn the model is still streaming and settles its message as dropped", async () => {
    const { sandbox, fake } = await start({ dmPolicy: "allowlist", allowFrom: [ALICE.id] });
    sandbox.fake.text("a long answer that never ends", { chunks: 60, delayMs: 100 });
    const long = privateMessage({ text: "tell me everything" });
    fake.pushMessage(TOKEN, long);
    await waitUntil(() => sandbox.fake.chatRequests.length === 1, "the model request");
    fake.pushMessage(TOKEN, privateMessage({ text: "/stop" }));
    const reply = await waitForSend(fake, ALICE.id);
    expect(String(reply.params.text)).toContain("Stopped the running turn");
    await waitUntil(
      () =>
        journalLines(sandbox).some(
          (line) =>
            line.type === "settled" &&
            String(line.key).endsWith(`\u0000${long.message_id}`) &&
            line.outcome === "dropped",
        ),
      "the aborted message settled as dropped",
    );
    // Nothing but the /stop reply was sent: the aborted turn has no reply.
    expect(fake.callsOf("sendMessage", TOKEN)).toHaveLength(1);
  });

  it("in a group: addressed commands only; an unauthorized /reset is refused, an allowed one resets", async () => {
    const { sandbox, fake } = await start({
      groups: { [GROUP_ID]: { requireMention: true } },
      // Alice is on the DM allowlist: that authorizes her commands in groups too; Bob is on none.
      allowFrom: [ALICE.id],
    });
    // A session to reset: one turn from Alice, mentioned.
    sandbox.fake.text("group answer");
    const hi = "@pincer_main_bot hi";
    fake.pushMessage(
      TOKEN,
      groupMessage({
        chatId: GROUP_ID,
        text: hi,
        entities: [entityFor(hi, "@pincer_main_bot", "mention")],
      }),
    );
    await waitForSend(fake, GROUP_ID, 1);
    const store = sandbox.gw.core.runtime.stores.forAgent("main");
    const first = store.get(GROUP_KEY)?.sessionId;
    expect(first).toBeDefined();

    // Bob may read (/status) but not reset.
    fake.pushMessage(TOKEN, addressed("/status@pincer_main_bot", BOB));
    expect(String((await waitForSend(fake, GROUP_ID, 2)).params.text)).toContain(
      `Session: ${GROUP_KEY}`,
    );
    fake.pushMessage(TOKEN, addressed("/reset@pincer_main_bot", BOB));
    const refused = await waitForSend(fake, GROUP_ID, 3);
    expect(String(refused.params.text)).toContain("not allowed to use /reset");
    expect(store.get(GROUP_KEY)?.sessionId).toBe(first);

    // A command addressed to another bot is not ours: kept as group context, no reply.
    const other = fake.pushMessage(TOKEN, addressed("/reset@other_bot", ALICE));
    await fake.waitForCall("getUpdates", (c) => Number(c.params.offset) > other);
    expect(store.get(GROUP_KEY)?.sessionId).toBe(first);

    fake.pushMessage(TOKEN, addressed("/reset@pincer_main_bot", ALICE));
    const done = await waitForSend(fake, GROUP_ID, 4);
    expect(String(done.params.text)).toContain("New session started");
    expect(store.get(GROUP_KEY)?.sessionId).not.toBe(first);
    expect(sandbox.fake.chatRequests).toHaveLength(1);
  });
});
