// kill -9 of a real gateway process (the built CLI) in the middle of a Telegram reply, against the
// fake Bot API and the fake model: a reply whose send was cut is never sent again after the restart
// (nor is its turn run again); it is reported as uncertain (channels.status, the failures log,
// `pincer channels failures`). Then random kills around the send: no message is answered twice, and
// every message is answered or reported. Needs `npm run build` first.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deliveryFailuresPath } from "../src/channels/delivery/failure-log.js";
import { openInboundJournal } from "../src/channels/inbound/inbound-journal.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  connectParams,
  type Loose,
  openClient,
  payloadOf,
  spawnGateway,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";

const TOKEN = "777:crash-token";
const silentLog = { info() {}, warn() {}, error() {} };

let model: FakeOpenAI | undefined;
let telegram: FakeTelegram | undefined;
const children: Array<ReturnType<typeof spawnGateway>> = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.child.kill("SIGKILL");
  await model?.close();
  await telegram?.close();
  model = undefined;
  telegram = undefined;
});

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function setup(fallback?: string) {
  model = await startFakeOpenAI(fallback ? { fallback: { kind: "text", text: fallback } } : {});
  telegram = await startFakeTelegram();
  telegram.addBot(TOKEN, { id: 777000, username: "pincer_crash_bot" });
  const sb = createCliSandbox();
  sb.writeConfig(
    JSON.stringify({
      models: fakeProviderConfig(model.baseUrl),
      agents: {
        defaults: { model: "fake/m1", workspace: join(sb.home, "ws") },
        list: [{ id: "main" }],
      },
      gateway: { auth: { mode: "token", token: TEST_TOKEN } },
      // One turn per message, so each reply quotes the message it answers (collect would join a
      // replayed message and a new one into one reply).
      messages: { queue: { mode: "followup", debounceMs: 0 } },
      logging: { file: join(sb.home, "gateway.log") },
      channels: {
        telegram: {
          apiRoot: telegram.apiRoot,
          botToken: TOKEN,
          dmPolicy: "open",
          allowFrom: ["*"],
        },
      },
    }),
  );
  return { sb, model, telegram };
}

/** Starts the built gateway and waits until its bot polls Telegram. */
async function spawn(sb: ReturnType<typeof createCliSandbox>, fake: FakeTelegram) {
  const polls = fake.callsOf("getUpdates").length;
  const gw = spawnGateway(["run", "--port", "0"], sb.env);
  children.push(gw);
  const url = await gw.waitForUrl();
  if (!url) throw new Error(`gateway did not start: ${gw.out}`);
  await waitUntil(() => fake.callsOf("getUpdates").length > polls, "the bot to poll");
  return { ...gw, url };
}

async function kill(gw: Awaited<ReturnType<typeof spawn>>) {
  gw.child.kill("SIGKILL");
  await gw.exited;
  children.splice(children.indexOf(gw), 1);
}

async function stop(gw: Awaited<ReturnType<typeof spawn>>) {
  gw.child.kill("SIGTERM");
  await gw.exited;
  children.splice(children.indexOf(gw), 1);
}

async function channelsStatus(url: string): Promise<Loose> {
  const client = await openClient(url);
  try {
    await client.request("connect", connectParams());
    return payloadOf(await client.request("channels.status"));
  } finally {
    client.close();
  }
}

/** Telegram message ids whose reply is reported as uncertain (`channels.failures.list`). */
async function uncertainReplies(url: string): Promise<Set<number>> {
  const client = await openClient(url);
  try {
    await client.request("connect", connectParams());
    const { entries } = payloadOf(await client.request("channels.failures.list", {}));
    return new Set(
      (entries as Loose[]).filter((e) => e.state === "uncertain").map((e) => Number(e.replyToId)),
    );
  } finally {
    client.close();
  }
}

/** sendMessage calls replying to Telegram message `messageId`. */
const repliesTo = (fake: FakeTelegram, messageId: number) =>
  fake
    .callsOf("sendMessage")
    .filter((c) => (c.params.reply_parameters as Loose | undefined)?.message_id === messageId);

describe("replies across kill -9", () => {
  it("does not re-send a reply cut mid-send, reports it as uncertain, and runs nothing again", async () => {
    const { sb, model: ai, telegram: tg } = await setup();
    tg.failNext("sendMessage", 1, { kind: "hang" });
    ai.text("reply one");
    const first = await spawn(sb, tg);
    const question = privateMessage({ text: "question one" });
    tg.pushMessage(TOKEN, question);
    await tg.waitForCall("sendMessage");
    await kill(first); // the request reached Telegram; its answer never came back

    ai.text("reply two");
    const second = await spawn(sb, tg);
    await waitUntil(
      async () =>
        (await channelsStatus(second.url)).channelAccounts.telegram[0].uncertainDeliveries === 1,
      "the uncertain delivery in channels.status",
    );
    const next = privateMessage({ text: "question two" });
    tg.pushMessage(TOKEN, next);
    await waitUntil(() => repliesTo(tg, next.message_id as number).length === 1, "reply two");
    const listed = await sb.run(["channels", "failures", "--url", second.url, "--json"]);
    expect(JSON.parse(listed.stdout).entries).toEqual([
      expect.objectContaining({ state: "uncertain", code: "interrupted", text: "reply one" }),
    ]);
    await stop(second);

    expect(repliesTo(tg, question.message_id as number).map((c) => c.params.text)).toEqual([
      "reply one",
    ]);
    expect(repliesTo(tg, next.message_id as number).map((c) => c.params.text)).toEqual([
      "reply two",
    ]);
    expect(ai.chatRequests).toHaveLength(2);
    const log = readFileSync(deliveryFailuresPath(sb.stateDir), "utf8").trim().split("\n");
    expect(log.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({ uncertain: true, retryable: false, text: "reply one" }),
    ]);
    const journal = openInboundJournal({ stateDir: sb.stateDir, log: silentLog });
    expect(journal.pending()).toEqual([]);
    journal.close();
    const offline = await sb.run(["channels", "failures", "--json"]);
    expect(JSON.parse(offline.stdout)).toMatchObject({
      gateway: "not running",
      entries: [expect.objectContaining({ state: "uncertain" })],
    });
  }, 60_000);

  it("random kills around the send: no message answered twice, every one answered or reported", async () => {
    const { sb, telegram: tg } = await setup("answer");
    // More trials for a figure: PINCER_CRASH_TRIALS=40 npx vitest run test/channels-crash.test.ts
    const trials = Number(process.env.PINCER_CRASH_TRIALS ?? 6);
    const asked: number[] = [];
    let gw = await spawn(sb, tg);
    for (let trial = 0; trial < trials; trial++) {
      const message = privateMessage({ text: `question ${trial}` });
      asked.push(message.message_id as number);
      const sendsBefore = tg.callsOf("sendMessage").length;
      tg.pushMessage(TOKEN, message);
      if (trial % 2 === 0) {
        // Right after the reply reached Telegram: the window between the send and its record.
        await waitUntil(() => tg.callsOf("sendMessage").length > sendsBefore, "a send");
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 4)));
      } else {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 300)));
      }
      await kill(gw);
      gw = await spawn(sb, tg);
    }
    // Let the last process answer what is left, then stop it cleanly.
    await waitUntil(async () => {
      const reported = await uncertainReplies(gw.url);
      return asked.every((id) => repliesTo(tg, id).length > 0 || reported.has(id));
    }, "every message answered or reported");
    await stop(gw);

    const entries: Loose[] = JSON.parse(
      (await sb.run(["channels", "failures", "--json"])).stdout,
    ).entries;
    const reportedIds = new Set(
      entries.filter((e) => e.state === "uncertain").map((e) => Number(e.replyToId)),
    );
    const doubled = asked.filter((id) => repliesTo(tg, id).length > 1).length;
    const answered = asked.filter((id) => repliesTo(tg, id).length === 1).length;
    const lost = asked.filter((id) => repliesTo(tg, id).length === 0 && !reportedIds.has(id));
    console.log(
      `kill -9 trials: ${trials}, answered once: ${answered}, doubled: ${doubled}, reported uncertain: ${reportedIds.size}, lost: ${lost.length}`,
    );
    expect(doubled).toBe(0);
    expect(lost).toEqual([]);
  }, 120_000);
});
