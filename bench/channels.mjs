// Telegram through the gateway daemon: `node dist/bin/pincer.js gateway` spawned as a child
// process over a temp state dir; its one Telegram bot polls bench/fake-telegram-server.mjs and its agent
// `main` runs on bench/fake-model-server.mjs (zero latency), both in this process on 127.0.0.1. DM
// policy open (`allowFrom: ["*"]`, no pairing), `session.dmScope: "per-channel-peer"` (one session per
// chat, as a multi-user bot runs), everything else default: queue mode collect (debounce 1 s, cap 20),
// `agents.defaults.maxConcurrent` 4, typing indicator on. The model answers `ack <tokens>`, echoing
// the tokens (`q<chat>x<n>`) of the last user message of its prompt, i.e. the messages of that turn.
//
// Method.
//   inbound → reply — one message at a time over 10 chats: `performance.now()` just before the update
//     is queued at the fake (which answers the held getUpdates at once) to the arrival of the
//     sendMessage carrying its token (request body read). WARMUP then MEASURED messages; p50 and p95.
//   1,000 messages — 100 new chats × 10 messages, all queued at the fake at once (the bot fetches them
//     100 per getUpdates). Messages of a chat that arrive while its run is busy are collected into its
//     next turn (collect mode), so a turn answers one or several messages. A message counts as answered
//     when exactly one delivered reply, sent to its own chat_id, carries its token; lost = no such
//     reply, doubled = more than one, misrouted = a reply to another chat. Time = first update queued
//     to the reply that answered the last message; then SETTLE_MS more to catch late doubles.
// Children run without NODE_EXTRA_CA_CERTS and other OPENCLAW_* variables (see bench/gateway.mjs).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { fakeModelsConfig, startFakeModelServer } from "./fake-model-server.mjs";
import { privateText, startFakeTelegramServer } from "./fake-telegram-server.mjs";
import { percentile, startGatewayProcess, stopChild } from "./gateway.mjs";

const BOT = { token: "4242:bench-bot", id: 4242, username: "pincer_bench_bot" };
const WARMUP = 5;
const MEASURED = 50;
const LATENCY_CHATS = 10;
const LOAD_CHATS = 100;
const LOAD_PER_CHAT = 10;
const READY_TIMEOUT_MS = 10_000;
const REPLY_TIMEOUT_MS = 10_000;
const LOAD_TIMEOUT_MS = 120_000;
const SETTLE_MS = 1_500;
const TOKEN_PATTERN = /q(\d+)x(\d+)/g;

/** The text of the last user message of a chat-completions body. */
export function lastUserText(body) {
  const users = (body?.messages ?? []).filter((m) => m.role === "user");
  return JSON.stringify(users.at(-1)?.content ?? "");
}

function tokensIn(text) {
  return [...String(text).matchAll(TOKEN_PATTERN)].map((m) => m[0]);
}

/**
 * A temp HOME whose one agent runs on the fake model and whose one Telegram bot (DM policy open, a
 * session per chat) polls the fake Bot API; `extra` adds top-level config sections.
 */
export function writeTelegramHome({ root, modelUrl, apiRoot, botToken = BOT.token, extra = {} }) {
  const home = join(root, "home");
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const config = {
    models: fakeModelsConfig(modelUrl),
    agents: {
      defaults: { model: "fake/m1", workspace: join(home, "workspace"), skipBootstrap: true },
      list: [{ id: "main" }],
    },
    session: { dmScope: "per-channel-peer" },
    channels: { telegram: { botToken, apiRoot, dmPolicy: "open", allowFrom: ["*"] } },
    ...extra,
  };
  writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  return home;
}

async function waitFor(check, what, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Sequential messages: ms from queueing each update to the sendMessage that answers it. */
async function replyLatencies(telegram) {
  const times = [];
  let messageId = 1;
  for (let i = 0; i < WARMUP + MEASURED; i++) {
    const chatId = 5_000_001 + (i % LATENCY_CHATS);
    const token = `q${chatId}x${i}`;
    let arrivedAt;
    const off = telegram.onSend(({ params, at }) => {
      if (String(params.text).includes(token)) arrivedAt = at;
    });
    const start = performance.now();
    telegram.push(privateText({ chatId, messageId: messageId++, text: `hello ${token}` }));
    await waitFor(() => arrivedAt !== undefined, `the reply to ${token}`, REPLY_TIMEOUT_MS);
    off();
    if (i >= WARMUP) times.push(arrivedAt - start);
  }
  return times.sort((a, b) => a - b);
}

/** 1,000 messages from 100 chats at once; counts answers per message and replies per chat. */
async function burst(telegram, model) {
  const expected = new Map(); // token -> { chatId, messageId }
  const answers = new Map(); // token -> delivered replies carrying it
  let misrouted = 0;
  let misquoted = 0;
  let replies = 0;
  let lastAnswerAt = 0;
  const off = telegram.onSend(({ params, at }) => {
    replies += 1;
    const tokens = tokensIn(params.text);
    for (const token of tokens) {
      answers.set(token, (answers.get(token) ?? 0) + 1);
      if (expected.get(token)?.chatId !== Number(params.chat_id)) misrouted += 1;
    }
    const quoted = params.reply_parameters?.message_id;
    const last = expected.get(tokens.at(-1));
    if (!last || quoted !== last.messageId) misquoted += 1;
    lastAnswerAt = at;
  });
  const requestsBefore = model.count;
  let messageId = 1_000;
  for (let n = 0; n < LOAD_PER_CHAT; n++) {
    for (let c = 0; c < LOAD_CHATS; c++) {
      const chatId = 7_000_001 + c;
      const token = `q${chatId}x${n}`;
      expected.set(token, { chatId, messageId: ++messageId });
    }
  }
  const start = performance.now();
  for (const [token, { chatId, messageId: id }] of expected) {
    telegram.push(privateText({ chatId, messageId: id, text: `load ${token}` }));
  }
  let timedOut = false;
  try {
    await waitFor(() => answers.size >= expected.size, "every message answered", LOAD_TIMEOUT_MS);
  } catch {
    timedOut = true;
  }
  const elapsed = lastAnswerAt - start;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  off();
  const counts = [...expected.keys()].map((token) => answers.get(token) ?? 0);
  const chatsDone = new Set();
  const chatsShort = new Set();
  for (const [token, { chatId }] of expected) {
    (answers.get(token) === 1 ? chatsDone : chatsShort).add(chatId);
  }
  for (const chatId of chatsShort) chatsDone.delete(chatId);
  return {
    chatsDone: chatsDone.size,
    elapsed,
    timedOut,
    answered: counts.filter((n) => n === 1).length,
    lost: counts.filter((n) => n === 0).length,
    doubled: counts.filter((n) => n > 1).length,
    misrouted,
    misquoted,
    replies,
    turns: model.count - requestsBefore,
  };
}

/** Bench rows for `npm run bench`. */
export async function channelRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-channels-"));
  const model = await startFakeModelServer({
    latencyMs: 0,
    record: false,
    reply: (body) => `ack ${tokensIn(lastUserText(body)).join(" ")}`,
  });
  const telegram = await startFakeTelegramServer(BOT);
  let child;
  try {
    ({ child } = await startGatewayProcess(
      writeTelegramHome({ root, modelUrl: model.baseUrl, apiRoot: telegram.apiRoot }),
    ));
    await waitFor(() => telegram.pollsSeen > 0, "the bot's first getUpdates", READY_TIMEOUT_MS);
    const latencies = await replyLatencies(telegram);
    const load = await burst(telegram, model);
    const ms = (p) => `${percentile(latencies, p).toFixed(2)} ms`;
    const total = LOAD_CHATS * LOAD_PER_CHAT;
    const verdict = load.timedOut ? ` (gave up after ${LOAD_TIMEOUT_MS / 1000} s)` : "";
    return [
      {
        name: `telegram inbound → sendMessage p50, zero-latency model (${MEASURED} msgs)`,
        result: ms(50),
        target: "",
      },
      {
        name: `telegram inbound → sendMessage p95, zero-latency model (${MEASURED} msgs)`,
        result: ms(95),
        target: "",
      },
      {
        name: `telegram ${total.toLocaleString("en-US")} msgs from ${LOAD_CHATS} chats at once (collect mode: turns answer 1+ msgs)`,
        result:
          `${load.answered}/${total} answered in ${(load.elapsed / 1000).toFixed(2)} s${verdict} ` +
          `(${load.chatsDone}/${LOAD_CHATS} chats complete); ` +
          `lost ${load.lost}, doubled ${load.doubled}, misrouted ${load.misrouted}, ` +
          `misquoted ${load.misquoted}; ${load.turns} turns, ${load.replies} replies`,
        target: "lost 0, doubled 0",
      },
    ];
  } finally {
    if (child) await stopChild(child);
    await telegram.close();
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

// `node bench/channels.mjs` prints the rows alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await channelRows()) console.log(`${row.name}: ${row.result}`);
}
