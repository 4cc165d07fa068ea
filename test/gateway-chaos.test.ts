// Chaos: the built gateway is killed (-9) at random moments under mixed load — WS clients sending
// `agent` and `chat.send` turns (some in one shared session, some in fresh ones, some in a Telegram
// chat's session) and retrying the ones they sent after each restart, while four Telegram chats
// write to the bot (fake Bot API, DM policy open, collect mode). The echo model quotes each prompt's
// token, so every reply is tied to its message. After the last restart and a clean stop: every WS
// turn ended exactly once (one prompt, one reply with its token, or an error shown in its session)
// and no retry ran it again; every Telegram message got exactly one reply or is reported (a dead
// letter or an uncertain part); none is lost or doubled; no transcript is an orphan, no prompt is in
// a transcript twice, and no journal holds anything pending. Figures: `PINCER_CHAOS_TRIALS=40 npx
// vitest run test/gateway-chaos.test.ts`. Needs `npm run build` first.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listDeliveryEntries } from "../src/channels/delivery/delivery-entries.js";
import { readDeliveryState } from "../src/channels/delivery/delivery-store.js";
import { readDeliveryFailures } from "../src/channels/delivery/failure-log.js";
import { openInboundJournal } from "../src/channels/inbound/inbound-journal.js";
import { silentLogger } from "../src/lib/logger.js";
import { deliveryEntries } from "./helpers/channel-replies.js";
import {
  echoReply,
  type PushedMessage,
  recordAnswer,
  type SentTurn,
  TOKEN_PATTERN,
  tallyMessages,
  tallyTurns,
  tokensIn,
} from "./helpers/chaos-ledger.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  connectedClient,
  type GatewayChild,
  gatewayChildren,
  waitUntil,
} from "./helpers/gateway-child.js";
import { payloadOf, TEST_TOKEN, type TestClient } from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";
import { auditState, pendingTurnKeys, promptCopies } from "./helpers/turn-audit.js";

const TRIALS = Number(process.env.PINCER_CHAOS_TRIALS ?? 8);
const BOT = "888:chaos-token";
const CHATS = [4101, 4102, 4103, 4104];
const WS_CLIENTS = 3;
const AGENT_TURNS = 6;
const CHAT_TURNS = 2;
const TELEGRAM_MESSAGES = 10;
const silentLog = silentLogger;

const children = gatewayChildren();
let model: FakeOpenAI | undefined;
let telegram: FakeTelegram | undefined;
let home: string | undefined;
afterEach(async () => {
  await children.killAll();
  await model?.close();
  await telegram?.close();
  // PINCER_CHAOS_KEEP=1 keeps the state dir to look at (its path is printed).
  if (home && !process.env.PINCER_CHAOS_KEEP) rmSync(home, { recursive: true, force: true });
  model = undefined;
  telegram = undefined;
  home = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (max: number) => Math.floor(Math.random() * max);
const telegramSession = (chatId: number) => `agent:main:telegram:direct:${chatId}`;

function writeSandbox(ai: FakeOpenAI, tg: FakeTelegram) {
  const sb = createCliSandbox();
  sb.writeConfig(
    JSON.stringify({
      models: fakeProviderConfig(ai.baseUrl),
      agents: {
        defaults: { model: "fake/m1", workspace: join(sb.home, "ws"), skipBootstrap: true },
        list: [{ id: "main" }],
      },
      gateway: { auth: { mode: "token", token: TEST_TOKEN } },
      session: { dmScope: "per-channel-peer" },
      messages: { queue: { mode: "collect", debounceMs: 30 } },
      logging: { file: join(sb.home, "gateway.log") },
      channels: {
        telegram: { apiRoot: tg.apiRoot, botToken: BOT, dmPolicy: "open", allowFrom: ["*"] },
      },
    }),
  );
  return sb;
}

/** The books of the whole run. */
interface Books {
  turns: SentTurn[];
  messages: PushedMessage[];
}

/** Sends (or re-sends) a WS turn and records what its first answer says; never throws. */
async function sendTurn(client: TestClient, turn: SentTurn, retry: boolean): Promise<void> {
  try {
    const res = await client.request(turn.method, turn.params, 30_000);
    recordAnswer(turn, res.ok ? payloadOf(res).status : undefined, retry);
  } catch {
    recordAnswer(turn, undefined, retry); // the socket died with the gateway: no answer
  }
}

function newTurn(round: number, index: number, books: Books): SentTurn {
  const chat = index >= AGENT_TURNS;
  const token = `${chat ? "c" : "w"}${round}n${index}`;
  const sessionKey = [
    `fresh-${round}-${index}`,
    "shared",
    `peer-${index % 2}`,
    telegramSession(CHATS[(round + index) % CHATS.length]!),
  ][index % 4]!;
  const key = `chaos-${token}`;
  const params = { message: `question ${token}`, idempotencyKey: key, sessionKey };
  const turn: SentTurn = {
    method: chat ? "chat.send" : "agent",
    key,
    token,
    params,
    acked: false,
    retries: 0,
    reran: 0,
  };
  books.turns.push(turn);
  return turn;
}

/** One round's load, fired until `killed()`: retries of earlier turns, new WS turns over several
 *  clients, Telegram messages from every chat, each after a short random pause. */
async function fireLoad(params: {
  round: number;
  clients: TestClient[];
  books: Books;
  killed: () => boolean;
}): Promise<void> {
  const { round, clients, books, killed } = params;
  const pick = () => clients[randomInt(clients.length)]!;
  const inFlight: Array<Promise<void>> = [];
  // After a restart a client retries what it sent in the previous round (same key).
  const roundOf = (turn: SentTurn) => Number(turn.token.slice(1, turn.token.indexOf("n")));
  for (const turn of books.turns.filter((t) => roundOf(t) === round - 1)) {
    inFlight.push(sendTurn(pick(), turn, true));
  }
  const ws = async () => {
    for (let i = 0; i < AGENT_TURNS + CHAT_TURNS && !killed(); i++) {
      inFlight.push(sendTurn(pick(), newTurn(round, i, books), false));
      await sleep(randomInt(40));
    }
  };
  const tg = async () => {
    for (let i = 0; i < TELEGRAM_MESSAGES && !killed(); i++) {
      const chatId = CHATS[i % CHATS.length]!;
      const token = `t${round}n${i}`;
      const from = { id: chatId, is_bot: false, first_name: `User${chatId}` };
      const message = privateMessage({ text: `hello ${token}`, from });
      telegram!.pushMessage(BOT, message);
      books.messages.push({ token, chatId, messageId: message.message_id as number });
      await sleep(randomInt(40));
    }
  };
  await Promise.all([ws(), tg()]);
  await Promise.all(inFlight);
}

/** Kills `gw` at a random moment: right after the k-th reply of the round reached Telegram (the
 *  window between a send and its record), or after a random pause. */
async function killSomewhen(gw: GatewayChild, round: number): Promise<string> {
  const sends = telegram!.callsOf("sendMessage").length;
  if (round % 2 === 0) {
    const k = 1 + randomInt(3);
    const sent = () => telegram!.callsOf("sendMessage").length >= sends + k;
    await waitUntil(sent, "a send", 15_000).catch(() => undefined); // the load was done: kill idle
    await sleep(randomInt(4));
    await children.kill(gw);
    return `after send ${k}`;
  }
  const ms = randomInt(800);
  await sleep(ms);
  await children.kill(gw);
  return `after ${ms} ms`;
}

async function startGateway(sb: ReturnType<typeof createCliSandbox>): Promise<GatewayChild> {
  const polls = telegram!.callsOf("getUpdates").length;
  return children.start(sb.env, () => telegram!.callsOf("getUpdates").length > polls);
}

/** The last start: every turn retried once more, every outcome waited for, every message answered
 *  or reported; then a clean stop. */
async function settle(sb: ReturnType<typeof createCliSandbox>, books: Books) {
  const gw = await startGateway(sb);
  const client = await connectedClient(gw.url);
  await Promise.all(books.turns.map((turn) => sendTurn(client, turn, true)));
  for (const turn of books.turns) {
    const res = await client.request("agent.wait", { runId: turn.key, timeoutMs: 30_000 }, 40_000);
    turn.outcome = payloadOf(res).status;
  }
  const reported = async () =>
    (await deliveryEntries(gw.url)).flatMap((e) => tokensIn(String(e.text ?? "")));
  await waitUntil(
    async () => {
      const done = new Set([
        ...telegram!.callsOf("sendMessage").flatMap((c) => tokensIn(String(c.params.text))),
        ...(await reported()),
      ]);
      return books.messages.every((m) => done.has(m.token));
    },
    "every Telegram message answered or reported",
    60_000,
  );
  // A retry of a finished turn answers its stored outcome without a model call.
  const calls = model!.chatRequests.length;
  for (const turn of books.turns) {
    const res = await client.request(turn.method, turn.params);
    expect(payloadOf(res).status, turn.key).toBe(turn.outcome);
  }
  expect(model!.chatRequests.length).toBe(calls);
  client.close();
  expect(await children.stop(gw)).toBe(0);
}

describe("chaos: kill -9 at random moments under mixed WS and Telegram load", () => {
  it("answers every accepted message exactly once or reports it; indexes and transcripts agree", async () => {
    model = await startFakeOpenAI({ fallback: echoReply(40) });
    telegram = await startFakeTelegram();
    telegram.addBot(BOT, { id: 888000, username: "pincer_chaos_bot" });
    const sb = writeSandbox(model, telegram);
    home = sb.home;
    const books: Books = { turns: [], messages: [] };
    const kills: string[] = [];
    for (let round = 0; round < TRIALS; round++) {
      const gw = await startGateway(sb);
      const clients = await Promise.all(
        Array.from({ length: WS_CLIENTS }, () => connectedClient(gw.url)),
      );
      // Once: a send that never answers, cut by the kill (an uncertain delivery to report).
      if (round === 2) telegram.failNext("sendMessage", 1, { kind: "hang" });
      let killed = false;
      const load = fireLoad({ round, clients, books, killed: () => killed });
      kills.push(await killSomewhen(gw, round));
      killed = true;
      await load;
    }
    await settle(sb, books);

    if (process.env.PINCER_CHAOS_KEEP) console.log(`chaos state dir: ${sb.stateDir}`);
    const audit = auditState(sb.stateDir);
    const turns = tallyTurns(books.turns, audit.runs);
    const prompts = promptCopies(sb.stateDir, TOKEN_PATTERN);
    const deliveries = listDeliveryEntries(readDeliveryState(sb.stateDir).state);
    const messages = tallyMessages({
      messages: books.messages,
      sentTexts: telegram.callsOf("sendMessage").map((c) => String(c.params.text)),
      reportedTexts: [
        ...deliveries.filter((e) => e.state === "failed" || e.state === "uncertain"),
        ...readDeliveryFailures(sb.stateDir, 100_000),
      ].map((e) => String(e.text ?? "")),
      prompts,
    });
    const journal = openInboundJournal({ stateDir: sb.stateDir, log: silentLog });
    const inboundPending = journal.pending().length;
    const journaled = new Set(journal.keys().map((key) => Number(key.split("\u0000").at(-1))));
    journal.close();
    const afterSend = kills.filter((kill) => kill.startsWith("after send")).length;
    const duplicatedWs = books.turns.filter((t) => (prompts.get(t.token)?.copies ?? 0) > 1);
    console.log(
      `chaos: ${TRIALS} kills (${afterSend} right after a send, ${TRIALS - afterSend} at random), ` +
        `${turns.sent} WS turns (${turns.acked} acked; ${turns.answered} answered once, ` +
        `${turns.failedVisibly} failed visibly, ${turns.doubled.length} doubled, ` +
        `${turns.lost.length} lost; ${turns.retries} retries, ${turns.reran} reran), ` +
        `${messages.pushed} Telegram messages (${messages.answered} answered once, ` +
        `${messages.reported} reported, ${messages.doubled.length} doubled, ` +
        `${messages.lost.length} lost; ${messages.duplicatedPrompts.length} prompts twice, ` +
        `${messages.rerunPrompts.length} rerun after a later turn), ` +
        `${audit.orphans.length} orphan transcripts`,
    );
    expect(turns.doubled).toEqual([]);
    expect(turns.lost).toEqual([]);
    expect(turns.acked).toBe(turns.sent);
    expect(duplicatedWs.map((t) => t.key)).toEqual([]);
    expect(messages.doubled).toEqual([]);
    expect(messages.lost).toEqual([]);
    expect(messages.duplicatedPrompts).toEqual([]);
    expect(books.messages.filter((m) => !journaled.has(m.messageId))).toEqual([]);
    expect(audit.orphans).toEqual([]);
    expect(pendingTurnKeys(sb.stateDir)).toEqual([]);
    expect(inboundPending).toBe(0);
    expect(deliveries.filter((e) => e.state === "queued" || e.state === "sending")).toEqual([]);
  }, 180_000);
});
