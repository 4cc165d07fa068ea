// Chaos (proof of crash safety): `node dist/bin/pincer.js gateway` killed (-9) at random moments under mixed
// load, then restarted. One state dir; its agent `main` runs on bench/fake-model-server.mjs (20 ms to
// answer, replying `ack <tokens of the prompt>`), its Telegram bot polls bench/fake-telegram-server.mjs
// (DM policy open, one session per chat, collect mode with a 30 ms debounce). Everything is loopback.
//
// Method. TRIALS rounds; each starts the gateway, waits for the bot's first poll, then at once: one
// WebSocket client retries (same idempotencyKey) the turns it sent in the round before, sends
// WS_TURNS new `agent` turns (some to one shared session, some to a chat's session) and CHATS chats
// send TG_MESSAGES messages in all, each a few ms apart, every message carrying a unique token. The
// process is killed -9 right after the k-th reply of the round reaches the fake Telegram (even
// rounds: the window between a send and its record) or after a random 0–600 ms (odd rounds). Then
// one last start: every turn is retried and waited for (agent.wait), every message must get a reply
// or be reported (`channels.failures.list`, up to SETTLE_TIMEOUT_MS), and the process is stopped
// with SIGTERM. Figures: a WS turn acknowledged once is lost when it does not end ok or error, doubled
// when a retry started it again; a Telegram message is doubled when two sent replies quote its
// token, reported when a dead letter or uncertain part quotes it, lost when neither.
// Children run without NODE_EXTRA_CA_CERTS and other OPENCLAW_* variables (see bench/gateway.mjs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { lastUserText, writeTelegramHome } from "./channels.mjs";
import { startFakeModelServer } from "./fake-model-server.mjs";
import { privateText, startFakeTelegramServer } from "./fake-telegram-server.mjs";
import { connectClient, startGatewayProcess, stopChild, withTimeout } from "./gateway.mjs";

const BOT = { token: "4343:chaos-bot", id: 4343, username: "pincer_chaos_bench_bot" };
const TRIALS = 8;
const CHATS = 4;
const WS_TURNS = 6;
const TG_MESSAGES = 8;
const READY_TIMEOUT_MS = 10_000;
const SETTLE_TIMEOUT_MS = 30_000;
const TOKEN_PATTERN = /\b[wt]\d+n\d+\b/g;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const randomInt = (max) => Math.floor(Math.random() * max);
const tokensIn = (text) => String(text).match(TOKEN_PATTERN) ?? [];

async function waitFor(check, what, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Sends a turn (or its retry) and notes what its first answer says; never throws. */
async function sendTurn(client, turn) {
  try {
    const res = await withTimeout(
      client.request("agent", turn.params, () => true),
      "agent",
      20_000,
    );
    const status = res.ok ? res.payload?.status : undefined;
    if (status === "accepted" && turn.acked) turn.reran++;
    if (status !== undefined) turn.acked = true;
  } catch {
    // The gateway died with the request in flight: no answer; the client retries after the restart.
  }
}

async function startAndPoll(home, telegram) {
  const polls = telegram.pollsSeen;
  const gw = await startGatewayProcess(home);
  await waitFor(() => telegram.pollsSeen > polls, "the bot's first getUpdates", READY_TIMEOUT_MS);
  return gw;
}

/** One round's load until `killed()`, then the kill at a random moment. */
async function round(params) {
  const { trial, client, child, books, telegram } = params;
  let killed = false;
  const inFlight = books.turns
    .filter((turn) => turn.trial === trial - 1)
    .map((turn) => sendTurn(client, turn));
  const ws = async () => {
    for (let i = 0; i < WS_TURNS && !killed; i++) {
      const token = `w${trial}n${i}`;
      const chat = 7_100_001 + ((trial + i) % CHATS);
      const sessionKey = ["shared", `fresh-${token}`, `agent:main:telegram:direct:${chat}`][i % 3];
      const key = `chaos-${token}`;
      const turn = { trial, token, acked: false, reran: 0, outcome: undefined };
      turn.params = { message: `question ${token}`, idempotencyKey: key, sessionKey };
      books.turns.push(turn);
      inFlight.push(sendTurn(client, turn));
      await sleep(randomInt(30));
    }
  };
  const tg = async () => {
    for (let i = 0; i < TG_MESSAGES && !killed; i++) {
      const token = `t${trial}n${i}`;
      const chatId = 7_100_001 + (i % CHATS);
      books.messages.push(token);
      telegram.push(privateText({ chatId, messageId: ++books.messageId, text: `hello ${token}` }));
      await sleep(randomInt(30));
    }
  };
  const load = Promise.all([ws(), tg()]);
  const sends = books.sent.length;
  if (trial % 2 === 0) {
    const k = 1 + randomInt(3);
    await waitFor(() => books.sent.length >= sends + k, "a send", 10_000).catch(() => undefined);
    await sleep(randomInt(3));
  } else {
    await sleep(randomInt(600));
  }
  child.kill("SIGKILL");
  await new Promise((resolve) =>
    child.exitCode !== null ? resolve() : child.once("exit", resolve),
  );
  await stopChild(child);
  killed = true;
  await load;
  await Promise.all(inFlight);
}

/** The last start: retries, outcomes, every message answered or reported; then SIGTERM. */
async function settle(params) {
  const { home, telegram, books } = params;
  const { child, url } = await startAndPoll(home, telegram);
  const client = await connectClient(url);
  try {
    await Promise.all(books.turns.map((turn) => sendTurn(client, turn)));
    for (const turn of books.turns) {
      const waited = await withTimeout(
        client.request(
          "agent.wait",
          { runId: turn.params.idempotencyKey, timeoutMs: 20_000 },
          () => true,
        ),
        "agent.wait",
        30_000,
      );
      turn.outcome = waited.payload?.status;
    }
    const reported = async () => {
      const res = await client.request("channels.failures.list", {}, () => true);
      return (res.payload?.entries ?? []).flatMap((entry) => tokensIn(entry.text ?? ""));
    };
    let reportedTokens = [];
    await waitFor(
      async () => {
        reportedTokens = await reported();
        const done = new Set([...books.sent.flatMap(tokensIn), ...reportedTokens]);
        return books.messages.every((token) => done.has(token));
      },
      "every message answered or reported",
      SETTLE_TIMEOUT_MS,
    ).catch(() => undefined); // what is left counts as lost
    await sleep(300); // late doubles
    return new Set(await reported());
  } finally {
    await client.close();
    await stopChild(child);
  }
}

/** Bench rows for `npm run bench`. */
export async function chaosRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-chaos-"));
  const model = await startFakeModelServer({
    latencyMs: 20,
    record: false,
    reply: (body) => `ack ${tokensIn(lastUserText(body)).join(" ")}`,
  });
  const telegram = await startFakeTelegramServer(BOT);
  const books = { turns: [], messages: [], sent: [], messageId: 1_000 };
  const off = telegram.onSend(({ params }) => books.sent.push(String(params.text)));
  try {
    const home = writeTelegramHome({
      root,
      modelUrl: model.baseUrl,
      apiRoot: telegram.apiRoot,
      botToken: BOT.token,
      extra: { messages: { queue: { mode: "collect", debounceMs: 30 } } },
    });
    for (let trial = 0; trial < TRIALS; trial++) {
      const { child, url } = await startAndPoll(home, telegram);
      const client = await connectClient(url);
      await round({ trial, client, child, books, telegram });
      await client.close();
    }
    const reported = await settle({ home, telegram, books });
    const replies = new Map();
    for (const text of books.sent) {
      for (const token of new Set(tokensIn(text)))
        replies.set(token, (replies.get(token) ?? 0) + 1);
    }
    const count = (list, check) => list.filter(check).length;
    const tg = {
      doubled: count(books.messages, (t) => (replies.get(t) ?? 0) > 1),
      reported: count(books.messages, (t) => (replies.get(t) ?? 0) <= 1 && reported.has(t)),
      lost: count(books.messages, (t) => !replies.has(t) && !reported.has(t)),
    };
    const acked = books.turns.filter((turn) => turn.acked);
    const ws = {
      doubled: count(acked, (turn) => turn.reran > 0),
      lost: count(acked, (turn) => turn.outcome !== "ok" && turn.outcome !== "error"),
      failed: count(acked, (turn) => turn.outcome === "error"),
    };
    return [
      {
        name: `chaos: ${TRIALS} kill -9 under WS + Telegram load (${acked.length} WS turns, ${books.messages.length} Telegram msgs)`,
        result:
          `WS lost ${ws.lost}, doubled ${ws.doubled}, failed visibly ${ws.failed}; ` +
          `Telegram lost ${tg.lost}, doubled ${tg.doubled}, reported ${tg.reported}`,
        target: "lost 0, doubled 0",
      },
    ];
  } finally {
    off();
    await telegram.close();
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

// `node bench/chaos.mjs` prints the rows alone.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const row of await chaosRows()) console.log(`${row.name}: ${row.result}`);
}
