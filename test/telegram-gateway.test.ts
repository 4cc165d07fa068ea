// Telegram end to end through the real gateway (port 0, temp state, the built-in adapter loaders),
// the fake Bot API server and the fake model: DM pairing approved with the CLI, group mention gating,
// forum topics routed by their parent group's binding, two bots bound to two agents, and a gateway
// restart that neither replays nor loses an update (the persisted offset).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { offsetFilePath } from "../src/channels/telegram/offset-store.js";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  type FakeTelegram,
  type FakeTelegramCall,
  startFakeTelegram,
} from "./helpers/fake-telegram.js";
import {
  entityFor,
  type FakeUser,
  groupMessage,
  privateMessage,
  topicMessage,
} from "./helpers/fake-telegram-updates.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const MAIN_TOKEN = "111:main-token";
const ALERTS_TOKEN = "222:alerts-token";
const MAIN_BOT = { id: 111000, username: "pincer_main_bot" };
const ALERTS_BOT = { id: 222000, username: "pincer_alerts_bot" };
const BOB: FakeUser = { id: 333, is_bot: false, first_name: "Bob", username: "bob" };
const GROUP_ID = -100111;
const FORUM_ID = -100222;

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
const restarted: GatewayHandle[] = [];
afterEach(async () => {
  for (const gw of restarted.splice(0)) await gw.close("test done");
  await box?.close();
  await telegram?.close();
  box = undefined;
  telegram = undefined;
});

interface StartParams {
  /** `channels.telegram.accounts.default` settings besides the token. */
  main?: Record<string, unknown>;
  /** Adds the second bot (`alerts`, bound to agent `alerts`). */
  alerts?: Record<string, unknown>;
}

/** Fake Bot API + gateway with agents main / alerts / forum and account + parent-group bindings. */
async function start(params: StartParams = {}) {
  const fakeTelegram = await startFakeTelegram();
  telegram = fakeTelegram;
  fakeTelegram.addBot(MAIN_TOKEN, MAIN_BOT);
  fakeTelegram.addBot(ALERTS_TOKEN, ALERTS_BOT);
  const workspace = (name: string) => makeTempDir(`pincer-tg-${name}-`);
  const accounts: Record<string, unknown> = {
    default: { botToken: MAIN_TOKEN, ...params.main },
  };
  if (params.alerts) accounts.alerts = { botToken: ALERTS_TOKEN, ...params.alerts };
  box = await createGatewaySandbox({
    config: () => ({
      channels: {
        telegram: { apiRoot: fakeTelegram.apiRoot, accounts },
      } as OpenClawConfig["channels"],
      agents: {
        list: [
          { id: "main" },
          { id: "alerts", workspace: workspace("alerts") },
          { id: "forum", workspace: workspace("forum") },
        ],
      },
      bindings: [
        {
          agentId: "forum",
          match: { channel: "telegram", peer: { kind: "group", id: `${FORUM_ID}` } },
        },
        { agentId: "main", match: { channel: "telegram", accountId: "default" } },
        { agentId: "alerts", match: { channel: "telegram", accountId: "alerts" } },
      ],
    }),
  });
  await waitForPoll(fakeTelegram, MAIN_TOKEN);
  if (params.alerts) await waitForPoll(fakeTelegram, ALERTS_TOKEN);
  return { sandbox: box, fakeTelegram };
}

/** Resolves once the bot's poller asked for updates after `updateId`, i.e. it handed that one on. */
function waitForPoll(fake: FakeTelegram, token: string, updateId = 0): Promise<FakeTelegramCall> {
  return fake.waitForCall(
    "getUpdates",
    (c) => c.token === token && (updateId === 0 || Number(c.params.offset) > updateId),
  );
}

function sendsTo(fake: FakeTelegram, token: string, chatId: number): FakeTelegramCall[] {
  return fake.callsOf("sendMessage", token).filter((c) => Number(c.params.chat_id) === chatId);
}

/** Resolves with the `nth` sendMessage (1-based) of a bot to a chat, waiting for it if needed. */
function waitForSend(fake: FakeTelegram, token: string, chatId: number, nth = 1) {
  return fake.waitForCall(
    "sendMessage",
    (c) => sendsTo(fake, token, chatId).indexOf(c) === nth - 1,
  );
}

/** Polls `check` until it holds (5 s bound: generous on a loaded machine). */
async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function transcript(sandbox: GatewaySandbox, agentId: string, sessionKey: string): string {
  const read = sandbox.gw.core.runtime.stores.forAgent(agentId).readTranscript(sessionKey);
  return JSON.stringify(read?.entries ?? []);
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** Runs `pincer argv` in-process against the gateway sandbox's home and state dir. */
const cli = (env: Record<string, string>, argv: string[]) => createCliSandbox(env).run(argv);

describe("Telegram through the gateway", () => {
  it("pairs an unknown DM sender, then streams the bound agent's reply after `pairing approve`", async () => {
    const { sandbox, fakeTelegram } = await start();
    const first = fakeTelegram.pushMessage(MAIN_TOKEN, privateMessage({ text: "hello?" }));
    const codeCall = await waitForSend(fakeTelegram, MAIN_TOKEN, 111);
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(String(codeCall.params.text))?.[1];
    expect(code).toBeDefined();
    const again = fakeTelegram.pushMessage(MAIN_TOKEN, privateMessage({ text: "hello again" }));
    await waitForPoll(fakeTelegram, MAIN_TOKEN, again);
    expect(again).toBeGreaterThan(first);
    expect(sendsTo(fakeTelegram, MAIN_TOKEN, 111)).toHaveLength(1);
    expect(sandbox.fake.chatRequests).toHaveLength(0);

    const approved = await cli(sandbox.env, ["pairing", "approve", "telegram", code!]);
    expect(approved.code).toBe(0);
    const client = await sandbox.connect();
    sandbox.fake.text("Welcome **aboard**", { chunks: 4, delayMs: 5 });
    const dm = privateMessage({ text: "now?" });
    fakeTelegram.pushMessage(MAIN_TOKEN, dm);
    const reply = await waitForSend(fakeTelegram, MAIN_TOKEN, 111, 2);
    expect(reply.params).toMatchObject({
      text: "Welcome <b>aboard</b>",
      parse_mode: "HTML",
      reply_parameters: { message_id: dm.message_id, allow_sending_without_reply: true },
    });
    expect(reply.params.message_thread_id).toBeUndefined();
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    // The model streamed it: gateway clients saw the deltas of the channel run on its session
    // (coalesced per 150 ms: the agent deltas add up to the text, the chat final carries it whole).
    const final = await client.waitFor((f) => f.event === "chat" && payloadOf(f).state === "final");
    expect(payloadOf(final).message.content[0].text).toBe("Welcome **aboard**");
    const chatDeltas = client
      .events("chat")
      .map(payloadOf)
      .filter((p) => p.state === "delta" && p.sessionKey === "agent:main:main");
    expect(chatDeltas.length).toBeGreaterThan(0);
    const deltas = client
      .events("agent")
      .map(payloadOf)
      .filter((p) => p.stream === "assistant" && p.sessionKey === "agent:main:main");
    expect(deltas.map((p) => p.data.delta).join("")).toBe("Welcome **aboard**");
    const entry = sandbox.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({
      lastChannel: "telegram",
      lastTo: "111",
      lastAccountId: "default",
    });
    const text = transcript(sandbox, "main", "agent:main:main");
    expect(text).toContain("now?");
    expect(text).toContain("Welcome **aboard**");
    expect(text).not.toContain("hello again");
  });

  it("keeps an unmentioned group message as context and runs on a native mention", async () => {
    const { sandbox, fakeTelegram } = await start({ main: { groups: { [GROUP_ID]: {} } } });
    const quiet = fakeTelegram.pushMessage(
      MAIN_TOKEN,
      groupMessage({ chatId: GROUP_ID, from: BOB, text: "lunch at noon" }),
    );
    await waitForPoll(fakeTelegram, MAIN_TOKEN, quiet);
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    expect(fakeTelegram.callsOf("sendMessage")).toHaveLength(0);

    sandbox.fake.text("Noon works", { chunks: 3, delayMs: 2 });
    const text = "@pincer_main_bot ok?";
    const mention = groupMessage({
      chatId: GROUP_ID,
      text,
      entities: [entityFor(text, "@pincer_main_bot", "mention")],
    });
    fakeTelegram.pushMessage(MAIN_TOKEN, mention);
    const reply = await waitForSend(fakeTelegram, MAIN_TOKEN, GROUP_ID);
    expect(reply.params).toMatchObject({
      text: "Noon works",
      reply_parameters: { message_id: mention.message_id },
    });
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain("Bob: lunch at noon");
    expect(prompt).toContain("Alice: @pincer_main_bot ok?");
    const key = `agent:main:telegram:group:${GROUP_ID}`;
    expect(transcript(sandbox, "main", key)).toContain("Noon works");
  });

  it("routes a forum topic message by its parent group's binding and replies in the topic", async () => {
    const { sandbox, fakeTelegram } = await start({
      main: { groups: { [FORUM_ID]: { requireMention: false } } },
    });
    sandbox.fake.text("Topic answer");
    const inTopic = topicMessage({ chatId: FORUM_ID, topicId: 42, text: "status of 42?" });
    fakeTelegram.pushMessage(MAIN_TOKEN, inTopic);
    const reply = await waitForSend(fakeTelegram, MAIN_TOKEN, FORUM_ID);
    expect(reply.params).toMatchObject({
      text: "Topic answer",
      message_thread_id: 42,
      reply_parameters: { message_id: inTopic.message_id },
    });
    const key = `agent:forum:telegram:group:${FORUM_ID}:topic:42`;
    expect(transcript(sandbox, "forum", key)).toContain("status of 42?");
    expect(sandbox.gw.core.runtime.stores.forAgent("main").get(key)).toBeUndefined();
  });

  it("routes two bots to two agents, each replying through its own token", async () => {
    const { sandbox, fakeTelegram } = await start({
      main: { dmPolicy: "allowlist", allowFrom: ["111"] },
      alerts: { dmPolicy: "open", allowFrom: ["*"] },
    });
    sandbox.fake.text("from alerts");
    fakeTelegram.pushMessage(ALERTS_TOKEN, privateMessage({ from: BOB, text: "disk full?" }));
    const alertsReply = await waitForSend(fakeTelegram, ALERTS_TOKEN, BOB.id);
    expect(alertsReply.params.text).toBe("from alerts");
    sandbox.fake.text("from main");
    fakeTelegram.pushMessage(MAIN_TOKEN, privateMessage({ text: "hi main" }));
    const mainReply = await waitForSend(fakeTelegram, MAIN_TOKEN, 111);
    expect(mainReply.params.text).toBe("from main");
    expect(fakeTelegram.callsOf("sendMessage", ALERTS_TOKEN)).toHaveLength(1);
    expect(fakeTelegram.callsOf("sendMessage", MAIN_TOKEN)).toHaveLength(1);
    expect(transcript(sandbox, "alerts", "agent:alerts:main")).toContain("disk full?");
    expect(transcript(sandbox, "main", "agent:main:main")).toContain("hi main");
    expect(transcript(sandbox, "main", "agent:main:main")).not.toContain("disk full?");
  });

  it("resumes after a restart from the persisted offset: nothing replayed, nothing lost", async () => {
    const { sandbox, fakeTelegram } = await start({ main: { dmPolicy: "open", allowFrom: ["*"] } });
    // The gateway stops while the first run is still streaming: the run drains, its reply goes out.
    sandbox.fake.text("reply one", { chunks: 4, delayMs: 40 });
    const one = fakeTelegram.pushMessage(MAIN_TOKEN, privateMessage({ text: "msg-one" }));
    await waitUntil(() => sandbox.fake.chatRequests.length === 1, "the first model request");
    await sandbox.gw.close("restart");
    expect(sendsTo(fakeTelegram, MAIN_TOKEN, 111).map((c) => c.params.text)).toEqual(["reply one"]);
    const offsetPath = offsetFilePath(sandbox.stateDir, "default");
    expect(JSON.parse(readFileSync(offsetPath, "utf8"))).toEqual({
      version: 1,
      botId: String(MAIN_BOT.id),
      lastUpdateId: one,
    });

    // Two messages arrive while the gateway is down; Telegram keeps them until they are confirmed.
    const two = fakeTelegram.pushMessage(MAIN_TOKEN, privateMessage({ text: "msg-two" }));
    const threeMessage = privateMessage({ text: "msg-three" });
    const three = fakeTelegram.pushMessage(MAIN_TOKEN, threeMessage);
    expect([two, three]).toEqual([one + 1, one + 2]);
    const callsBefore = fakeTelegram.calls.length;
    sandbox.fake.text("reply two");
    sandbox.fake.text("reply three");
    const gw = await startGateway({ env: sandbox.env, port: 0, watchConfig: false });
    restarted.push(gw);
    const firstPoll = await fakeTelegram.waitForCall(
      "getUpdates",
      (c) => c.token === MAIN_TOKEN && fakeTelegram.calls.indexOf(c) >= callsBefore,
    );
    expect(firstPoll.params.offset).toBe(one + 1);
    // msg-three joins msg-two's turn (queue mode collect) or gets its own; either way the turn that
    // holds it replies quoting it.
    const replies = () => sendsTo(fakeTelegram, MAIN_TOKEN, 111);
    const quotedIds = () =>
      replies().map((c) => (c.params.reply_parameters as { message_id: number }).message_id);
    await waitUntil(
      () => quotedIds().includes(threeMessage.message_id as number),
      "the reply to msg-three",
    );
    await gw.close("test done");
    expect(new Set(quotedIds()).size).toBe(quotedIds().length);
    expect(replies()).toHaveLength(sandbox.fake.chatRequests.length);
    expect(JSON.parse(readFileSync(offsetPath, "utf8")).lastUpdateId).toBe(three);
    const read = gw.core.runtime.stores.forAgent("main").readTranscript("agent:main:main");
    const text = JSON.stringify(read?.entries ?? []);
    for (const inbound of ["msg-one", "msg-two", "msg-three", "reply one"]) {
      expect(occurrences(text, inbound)).toBe(1);
    }
  });
});
