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
import { silentLogger } from "../src/lib/logger.js";
import { repliesTo, uncertainReplies } from "./helpers/channel-replies.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { connectedClient, gatewayChildren, waitUntil } from "./helpers/gateway-child.js";
import { type Loose, payloadOf, TEST_TOKEN } from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";

const TOKEN = "777:crash-token";
const silentLog = silentLogger;

const children = gatewayChildren();
let model: FakeOpenAI | undefined;
let telegram: FakeTelegram | undefined;
afterEach(async () => {
  await children.killAll();
  await model?.close();
  await telegram?.close();
  model = undefined;
  telegram = undefined;
});

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
  return children.start(sb.env, () => fake.callsOf("getUpdates").length > polls);
}

async function channelsStatus(url: string): Promise<Loose> {
  const client = await connectedClient(url);
  try {
    return payloadOf(await client.request("channels.status"));
  } finally {
    client.close();
  }
}

describe("replies across kill -9", () => {
  it("does not re-send a reply cut mid-send, reports it as uncertain, and runs nothing again", async () => {
    const { sb, model: ai, telegram: tg } = await setup();
    tg.failNext("sendMessage", 1, { kind: "hang" });
    ai.text("reply one");
    const first = await spawn(sb, tg);
    const question = privateMessage({ text: "question one" });
    tg.pushMessage(TOKEN, question);
    await tg.waitForCall("sendMessage");
    await children.kill(first); // the request reached Telegram; its answer never came back

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
    await children.stop(second);

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
      await children.kill(gw);
      gw = await spawn(sb, tg);
    }
    // Let the last process answer what is left, then stop it cleanly.
    await waitUntil(async () => {
      const reported = await uncertainReplies(gw.url);
      return asked.every((id) => repliesTo(tg, id).length > 0 || reported.has(id));
    }, "every message answered or reported");
    await children.stop(gw);

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
