// A Telegram turn cut by kill -9 of the built gateway goes on as that turn after the restart: a
// collected turn cut mid-run resumes from its transcript (its prompt once, one model call whose
// context holds it once, one reply answering every message it collected); a turn whose reply had
// landed in the transcript but was never handed to the delivery queue is answered with that reply,
// without a model call. The same resume with the sessions in PostgreSQL (cluster.store), where the
// transcript is loaded before recovery looks for the turn. Fake Bot API, fake model. Needs
// `npm run build` first.
import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { openSessionStore } from "../src/sessions/index.js";
import { echoReply, lastUserText, TOKEN_PATTERN, tokensIn } from "./helpers/chaos-ledger.js";
import { type CliSandbox, createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { gatewayChildren, waitUntil } from "./helpers/gateway-child.js";
import { TEST_TOKEN } from "./helpers/gateway-sandbox.js";
import { createTestDatabase } from "./helpers/postgres.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";
import { promptCopies } from "./helpers/turn-audit.js";

const BOT = "555:recovery-token";
const CHAT = 6060;

const db = await createTestDatabase("channel_recovery");
const children = gatewayChildren();
let model: FakeOpenAI | undefined;
let telegram: FakeTelegram | undefined;
let sandbox: CliSandbox | undefined;
afterEach(async () => {
  await children.killAll();
  await model?.close();
  await telegram?.close();
  if (sandbox) rmSync(sandbox.home, { recursive: true, force: true });
  model = undefined;
  telegram = undefined;
  sandbox = undefined;
});

/** `postgresUrl`: the sessions live there (cluster.store) instead of the state dir. */
async function setup(postgresUrl?: string) {
  model = await startFakeOpenAI({ fallback: echoReply(0) });
  telegram = await startFakeTelegram();
  telegram.addBot(BOT, { id: 555000, username: "pincer_recovery_bot" });
  sandbox = createCliSandbox();
  sandbox.writeConfig(
    JSON.stringify({
      models: fakeProviderConfig(model.baseUrl),
      agents: {
        defaults: { model: "fake/m1", workspace: join(sandbox.home, "ws"), skipBootstrap: true },
        list: [{ id: "main" }],
      },
      gateway: { auth: { mode: "token", token: TEST_TOKEN } },
      messages: { queue: { mode: "collect", debounceMs: 0 } },
      channels: {
        telegram: { apiRoot: telegram.apiRoot, botToken: BOT, dmPolicy: "open", allowFrom: ["*"] },
      },
      ...(postgresUrl ? { cluster: { store: { kind: "postgres", url: postgresUrl } } } : {}),
    }),
  );
  return { ai: model, tg: telegram, sb: sandbox };
}

/** Starts the gateway and waits for its bot's first poll. */
async function start(sb: CliSandbox, tg: FakeTelegram) {
  const polls = tg.callsOf("getUpdates").length;
  return children.start(sb.env, () => tg.callsOf("getUpdates").length > polls);
}

/** Pushes a DM and waits until the bot acknowledged it (journaled: the offset passed it). */
async function pushAccepted(tg: FakeTelegram, text: string) {
  const update = tg.pushMessage(
    BOT,
    privateMessage({ text, from: { id: CHAT, first_name: "Cy" } }),
  );
  await waitUntil(
    () => tg.callsOf("getUpdates").some((c) => Number(c.params.offset) > update),
    `"${text}" to be acknowledged`,
  );
}

const sentTexts = (tg: FakeTelegram) => tg.callsOf("sendMessage").map((c) => String(c.params.text));

/** The transcript file of the chat's session (dmScope main: the agent's main session). */
function transcriptFile(sb: CliSandbox): string {
  const storePath = join(sb.stateDir, "agents", "main", "sessions", "sessions.json");
  const file = openSessionStore({ storePath }).transcriptPath("agent:main:main");
  if (!file) throw new Error("the chat's session has no transcript");
  return file;
}

/** Waits until a transcript entry holding `token` is in PostgreSQL (schema `pincer`). */
async function promptInPostgres(url: string, token: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const stored = async () => {
      const rows = await sql`select 1 from pincer.transcript_entries
        where entry::text like ${`%${token}%`} limit 1`;
      return rows.length > 0;
    };
    const deadline = Date.now() + 10_000;
    while (!(await stored())) {
      if (Date.now() > deadline)
        throw new Error(`the prompt with ${token} never reached PostgreSQL`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Cuts a collected turn mid-run with kill -9 and restarts: its reply answers all its messages. */
async function cutCollectedTurn(postgresUrl?: string) {
  const { ai, tg, sb } = await setup(postgresUrl);
  ai.text("ack t0n0", { chunks: 2, delayMs: 400 }).hang();
  const first = await start(sb, tg);
  await pushAccepted(tg, "hello t0n0");
  await waitUntil(() => ai.chatRequests.length === 1, "the first turn's model call");
  // Both arrive while the first turn runs: collected into the next turn, whose model call hangs.
  await pushAccepted(tg, "hello t0n1");
  await pushAccepted(tg, "hello t0n2");
  await waitUntil(() => ai.chatRequests.length === 2, "the collected turn's model call");
  expect(tokensIn(lastUserText(ai.chatRequests[1]!))).toEqual(["t0n1", "t0n2"]);
  // PostgreSQL gets the prompt a moment after the model call starts (write-behind): a kill before
  // that runs the messages afresh, which is right but not this case.
  if (postgresUrl) await promptInPostgres(postgresUrl, "t0n2");
  await children.kill(first);

  const second = await start(sb, tg);
  await waitUntil(() => sentTexts(tg).length === 2, "the resumed turn's reply");
  await children.stop(second);
  expect(sentTexts(tg)).toEqual(["ack t0n0", "ack t0n1 t0n2"]);
  // One more model call, for the resumed turn: its context holds the collected prompt once.
  expect(ai.chatRequests).toHaveLength(3);
  const messages = (ai.chatRequests[2]!.body?.messages ?? []) as Array<{ role: string }>;
  const users = messages.filter((m) => m.role === "user");
  expect(users.map((m) => tokensIn(JSON.stringify(m)))).toEqual([["t0n0"], ["t0n1", "t0n2"]]);
  return sb;
}

describe("Telegram turns across kill -9", () => {
  it("resumes a collected turn cut mid-run: its prompt once, one reply for all its messages", async () => {
    const sb = await cutCollectedTurn();
    const copies = promptCopies(sb.stateDir, TOKEN_PATTERN);
    for (const token of ["t0n0", "t0n1", "t0n2"]) expect(copies.get(token)?.copies).toBe(1);
  }, 60_000);

  it.skipIf(db === undefined)(
    "resumes it the same with the sessions in PostgreSQL",
    async () => {
      await cutCollectedTurn(db!.url);
    },
    60_000,
  );

  it("answers with the reply that landed before the crash, without a model call", async () => {
    const { ai, tg, sb } = await setup();
    ai.hang();
    const first = await start(sb, tg);
    await pushAccepted(tg, "hello t1n0");
    await waitUntil(() => ai.chatRequests.length === 1, "the turn's model call");
    await children.kill(first);
    // What a crash right after the run ended (before its reply was planned) leaves: the reply.
    const file = transcriptFile(sb);
    const last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1)!);
    const reply = {
      role: "assistant",
      content: [{ type: "text", text: "landed t1n0" }],
      api: "openai-completions",
      provider: "fake",
      model: "m1",
      usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 },
      stopReason: "stop",
      timestamp: Date.now(),
    };
    const entry = {
      type: "message",
      id: "landed1",
      parentId: last.id,
      timestamp: "",
      message: reply,
    };
    appendFileSync(file, `${JSON.stringify(entry)}\n`);

    const second = await start(sb, tg);
    await waitUntil(() => sentTexts(tg).length === 1, "the reply");
    await children.stop(second);
    expect(sentTexts(tg)).toEqual(["landed t1n0"]);
    expect(ai.chatRequests).toHaveLength(1);
    expect(promptCopies(sb.stateDir, TOKEN_PATTERN).get("t1n0")).toMatchObject({ copies: 1 });
  }, 60_000);
});
