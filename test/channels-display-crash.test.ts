// Display settings of Telegram turns cut by kill -9 of the built gateway. A verbose turn's tool
// message, already sent, does not count as the message's reply (the turn still goes on after the
// restart and is answered) and is never sent twice, whether the cut came after the tool's result
// landed or while the tool ran (the resumed turn meets the same tool call again). A reply answered
// from the transcript after the restart carries the session's reasoning and usage footer as a run's
// reply does. Fake Bot API, fake model. Needs `npm run build`.
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSessionStore } from "../src/sessions/index.js";
import { type CliSandbox, createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { gatewayChildren, waitUntil } from "./helpers/gateway-child.js";
import { TEST_TOKEN } from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";

const BOT = "556:verbose-token";
const CHAT = 6161;

const children = gatewayChildren();
let model: FakeOpenAI | undefined;
let telegram: FakeTelegram | undefined;
let sandbox: CliSandbox | undefined;
afterEach(async () => {
  await children.killAll();
  await model?.close();
  await telegram?.close();
  if (sandbox) {
    // Releases a tool a killed gateway left waiting, then removes the sandbox.
    writeFileSync(join(sandbox.home, "ws", "go"), "");
    rmSync(sandbox.home, { recursive: true, force: true });
  }
  model = undefined;
  telegram = undefined;
  sandbox = undefined;
});

async function setup(messages: Record<string, unknown> = {}) {
  model = await startFakeOpenAI();
  telegram = await startFakeTelegram();
  telegram.addBot(BOT, { id: 556000, username: "pincer_verbose_bot" });
  sandbox = createCliSandbox();
  sandbox.writeConfig(
    JSON.stringify({
      models: fakeProviderConfig(model.baseUrl),
      agents: {
        defaults: {
          model: "fake/m1",
          workspace: join(sandbox.home, "ws"),
          skipBootstrap: true,
          verboseDefault: "on",
        },
        list: [{ id: "main" }],
      },
      gateway: { auth: { mode: "token", token: TEST_TOKEN } },
      messages,
      channels: {
        telegram: { apiRoot: telegram.apiRoot, botToken: BOT, dmPolicy: "open", allowFrom: ["*"] },
      },
    }),
  );
  return { ai: model, tg: telegram, sb: sandbox };
}

async function start(sb: CliSandbox, tg: FakeTelegram) {
  const polls = tg.callsOf("getUpdates").length;
  return children.start(sb.env, () => tg.callsOf("getUpdates").length > polls);
}

const sentTexts = (tg: FakeTelegram) => tg.callsOf("sendMessage").map((c) => String(c.params.text));

function pushDm(tg: FakeTelegram, text: string) {
  tg.pushMessage(BOT, privateMessage({ text, from: { id: CHAT, first_name: "Vi" } }));
}

describe("verbose Telegram turns across kill -9", () => {
  it("cut after the tool's result landed: answered after the restart, the tool message once", async () => {
    const { ai, tg, sb } = await setup();
    ai.toolCall("ls", { path: "." }).hang();
    const first = await start(sb, tg);
    pushDm(tg, "list the files");
    await waitUntil(() => ai.chatRequests.length === 2, "the model call after the tool");
    await waitUntil(() => sentTexts(tg).length === 1, "the tool message");
    await children.kill(first);

    ai.text("listed them");
    const second = await start(sb, tg);
    await waitUntil(() => sentTexts(tg).length === 2, "the resumed turn's reply");
    await children.stop(second);
    expect(sentTexts(tg)).toEqual(["🛠️ ls: <code>.</code>", "listed them"]);
    expect(ai.chatRequests).toHaveLength(3);
  }, 60_000);

  it("cut while the tool ran: the resumed turn's same tool call is not announced again", async () => {
    const { ai, tg, sb } = await setup();
    const command = "while [ ! -f go ]; do sleep 0.05; done; echo went";
    ai.toolCall("exec", { command });
    const first = await start(sb, tg);
    pushDm(tg, "wait for go");
    await waitUntil(() => sentTexts(tg).length === 1, "the tool message");
    await children.kill(first);
    expect(existsSync(join(sb.home, "ws", "go"))).toBe(false);

    // The resumed turn calls the model from its prompt again: the same call, then the answer.
    writeFileSync(join(sb.home, "ws", "go"), "");
    ai.toolCall("exec", { command }).text("it went");
    const second = await start(sb, tg);
    await waitUntil(() => sentTexts(tg).length === 2, "the resumed turn's reply");
    await children.stop(second);
    expect(sentTexts(tg)).toEqual([`🛠️ exec: <code>${command}</code>`, "it went"]);
    expect(ai.chatRequests).toHaveLength(3);
  }, 60_000);

  it("a reply answered from the transcript after the crash shows the reasoning and the footer", async () => {
    const { ai, tg, sb } = await setup({ responseUsage: "tokens" });
    const first = await start(sb, tg);
    pushDm(tg, "/reasoning on");
    await waitUntil(() => sentTexts(tg).length === 1, "the /reasoning reply");
    ai.hang();
    pushDm(tg, "think about it");
    await waitUntil(() => ai.chatRequests.length === 1, "the turn's model call");
    await children.kill(first);
    // What a crash right after the run ended (before its reply was planned) leaves: the reply.
    const storePath = join(sb.stateDir, "agents", "main", "sessions", "sessions.json");
    const file = openSessionStore({ storePath }).transcriptPath("agent:main:main")!;
    const last = JSON.parse(readFileSync(file, "utf8").trim().split("\n").at(-1)!);
    const reply = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Weigh it." },
        { type: "text", text: "thought it over" },
      ],
      api: "openai-completions",
      provider: "fake",
      model: "m1",
      usage: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0, totalTokens: 10 },
      stopReason: "stop",
      timestamp: Date.now(),
    };
    const entry = {
      type: "message",
      id: "landed2",
      parentId: last.id,
      timestamp: "",
      message: reply,
    };
    appendFileSync(file, `${JSON.stringify(entry)}\n`);

    const second = await start(sb, tg);
    await waitUntil(() => sentTexts(tg).length === 3, "the reply");
    await children.stop(second);
    expect(sentTexts(tg).slice(1)).toEqual([
      "Reasoning:\n<i>Weigh it.</i>",
      "thought it over\n\nUsage: 7 in / 3 out",
    ]);
    expect(ai.chatRequests).toHaveLength(1);
  }, 60_000);
});
