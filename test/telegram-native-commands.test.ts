// Who may use chat commands, over the fake Telegram Bot API through the real gateway: the account's
// start registers the command menu (setMyCommands with the registry's commands) or, with
// `commands.native: false`, clears it; `/status@ThisBot` is answered while `/status@OtherBot` is
// neither run nor handed to the model; an access group referenced from `commands.allowFrom`
// authorizes its members' `/reset` and refuses everyone else's; a reference to a group that does
// not exist is refused by config validation, naming the entry.
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_COMMANDS } from "../src/channels/commands/service.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import {
  ALICE,
  entityFor,
  type FakeUser,
  groupMessage,
  privateMessage,
} from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";

const TOKEN = "111:native-token";
const BOT = { id: 111000, username: "pincer_main_bot" };
const BOB: FakeUser = { id: 333, is_bot: false, first_name: "Bob", username: "bob" };
const GROUP_ID = -100222;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

async function start(params: {
  account?: Record<string, unknown>;
  config?: Partial<OpenClawConfig>;
}) {
  const fake = await startFakeTelegram();
  telegram = fake;
  fake.addBot(TOKEN, BOT);
  box = await createGatewaySandbox({
    config: () => ({
      ...params.config,
      channels: {
        telegram: {
          apiRoot: fake.apiRoot,
          accounts: { default: { botToken: TOKEN, ...params.account } },
        },
      } as OpenClawConfig["channels"],
    }),
  });
  await fake.waitForCall("getUpdates", (c) => c.token === TOKEN);
  return { sandbox: box, fake };
}

function sendsTo(fake: FakeTelegram, chatId: number) {
  return fake.callsOf("sendMessage", TOKEN).filter((c) => Number(c.params.chat_id) === chatId);
}

function waitForSend(fake: FakeTelegram, chatId: number, nth: number) {
  return fake.waitForCall("sendMessage", (c) => sendsTo(fake, chatId).indexOf(c) === nth - 1);
}

/** Resolves once the poller asked past update `id` (it was handed on and acknowledged). */
function handled(fake: FakeTelegram, id: number) {
  return fake.waitForCall("getUpdates", (c) => c.token === TOKEN && Number(c.params.offset) > id);
}

function command(text: string, from: FakeUser = ALICE) {
  const name = text.split(" ")[0]!;
  return groupMessage({
    chatId: GROUP_ID,
    from,
    text,
    entities: [entityFor(text, name, "bot_command")],
  });
}

describe("native command menu", () => {
  it("an account start registers the registry's commands with setMyCommands (native auto)", async () => {
    const { fake } = await start({});
    const call = await fake.waitForCall("setMyCommands", (c) => c.token === TOKEN);
    const menu = call.params.commands as Array<{ command: string; description: string }>;
    expect(menu.map((c) => c.command)).toEqual(BUILTIN_COMMANDS.map((d) => d.name));
    expect(menu.find((c) => c.command === "status")?.description).toBe(
      BUILTIN_COMMANDS.find((d) => d.name === "status")?.description,
    );
    // Accepted as Telegram would accept it (the fake checks the limits).
    expect(fake.commandMenu(TOKEN)).toHaveLength(menu.length);
    expect(fake.callsOf("deleteMyCommands")).toHaveLength(0);
  });

  it.each([{ native: false }, { text: false }])(
    "commands %o clears the menu with deleteMyCommands and sets none",
    async (commands) => {
      const { fake } = await start({ config: { commands } });
      await fake.waitForCall("deleteMyCommands", (c) => c.token === TOKEN);
      expect(fake.callsOf("setMyCommands")).toHaveLength(0);
    },
  );

  it("an account's own commands.native wins over the top-level one", async () => {
    const off = await start({ account: { commands: { native: false } } });
    await off.fake.waitForCall("deleteMyCommands", (c) => c.token === TOKEN);
    expect(off.fake.callsOf("setMyCommands")).toHaveLength(0);
    await box?.close();
    await telegram?.close();
    const on = await start({
      account: { commands: { native: true } },
      config: { commands: { native: false } },
    });
    await on.fake.waitForCall("setMyCommands", (c) => c.token === TOKEN);
    expect(on.fake.callsOf("deleteMyCommands")).toHaveLength(0);
  });

  it("a bot whose setMyCommands fails still answers", async () => {
    const fake = await startFakeTelegram();
    telegram = fake;
    fake.addBot(TOKEN, BOT);
    fake.failNext("setMyCommands", 1, { kind: "status", code: 500, description: "Internal" });
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          telegram: {
            apiRoot: fake.apiRoot,
            accounts: {
              default: { botToken: TOKEN, dmPolicy: "allowlist", allowFrom: [ALICE.id] },
            },
          },
        } as OpenClawConfig["channels"],
      }),
    });
    await fake.waitForCall("setMyCommands");
    fake.pushMessage(TOKEN, privateMessage({ text: "/whoami" }));
    expect(String((await waitForSend(fake, ALICE.id, 1)).params.text)).toContain(`${ALICE.id}`);
  });
});

describe("addressed commands", () => {
  it("/status@ThisBot is answered; /status@OtherBot is not run and not sent to the model", async () => {
    const { sandbox, fake } = await start({
      account: { groups: { [GROUP_ID]: { requireMention: false } }, allowFrom: [ALICE.id] },
    });
    sandbox.fake.text("the model answered");
    const other = fake.pushMessage(TOKEN, command("/status@other_bot"));
    const otherReset = fake.pushMessage(TOKEN, command("/reset@other_bot"));
    await handled(fake, Math.max(other, otherReset));
    fake.pushMessage(TOKEN, command("/status@pincer_main_bot"));
    const reply = await waitForSend(fake, GROUP_ID, 1);
    expect(String(reply.params.text)).toContain(`Session: agent:main:telegram:group:${GROUP_ID}`);
    expect(sendsTo(fake, GROUP_ID)).toHaveLength(1);
    expect(sandbox.fake.chatRequests).toHaveLength(0);
  });
});

describe("access groups", () => {
  it("accessGroup:ops in commands.allowFrom: a member may /reset, a sender outside is refused", async () => {
    const { sandbox, fake } = await start({
      account: { dmPolicy: "open", allowFrom: ["*"] },
      config: {
        accessGroups: { ops: { type: "message.senders", members: { telegram: [ALICE.id] } } },
        commands: { allowFrom: { telegram: ["accessGroup:ops"] } },
      },
    });
    const store = sandbox.gw.core.runtime.stores.forAgent("main");
    sandbox.fake.text("hello");
    fake.pushMessage(TOKEN, privateMessage({ text: "hi", from: BOB }));
    await waitForSend(fake, BOB.id, 1);
    const bobKey = "agent:main:main";
    const before = store.get(bobKey)?.sessionId;
    fake.pushMessage(TOKEN, privateMessage({ text: "/reset", from: BOB }));
    expect(String((await waitForSend(fake, BOB.id, 2)).params.text)).toContain(
      "not allowed to use /reset",
    );
    expect(store.get(bobKey)?.sessionId).toBe(before);
    fake.pushMessage(TOKEN, privateMessage({ text: "/reset" }));
    expect(String((await waitForSend(fake, ALICE.id, 1)).params.text)).toContain(
      "New session started",
    );
    expect(store.get(bobKey)?.sessionId).not.toBe(before);
  });

  it("a reference to a group that does not exist is refused by config validation, naming it", async () => {
    const { sandbox } = await start({});
    const client = await sandbox.connect();
    const { hash } = payloadOf(await client.request("config.get"));
    const refused = await client.request("config.patch", {
      raw: JSON.stringify({ commands: { allowFrom: { telegram: ["accessGroup:nightshift"] } } }),
      baseHash: hash,
    });
    expect(refused.error).toMatchObject({ details: { code: "CONFIG_INVALID" } });
    const text = JSON.stringify(refused.error);
    expect(text).toContain("accessGroup:nightshift");
    expect(text).toContain("commands.allowFrom.telegram[0]");
  });
});
