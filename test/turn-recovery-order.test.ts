// After a kill -9, the WS turn that was running in a session resumes before the channel messages
// queued behind it in that session: a Telegram message replayed from the inbound journal (or a new
// one) must not run first, or the resumed turn finds a later turn on top of its prompt and fails
// ("a later turn already ran in its session"). Real built gateway, fake Bot API, fake model.
// Needs `npm run build` first.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPairingAccess } from "../src/channels/pairing/pairing-access.js";
import { loadConfig } from "../src/config/index.js";
import { GatewayChannels } from "../src/gateway/channels.js";
import { RunResources } from "../src/gateway/runs/run-resources.js";
import { RunTracker } from "../src/gateway/runs/run-tracker.js";
import { writeFileAtomic } from "../src/lib/atomic-write.js";
import { silentLogger } from "../src/lib/logger.js";
import { acquireStateDirLock } from "../src/sessions/index.js";
import { echoReply } from "./helpers/chaos-ledger.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import { connectedClient, gatewayChildren, waitUntil } from "./helpers/gateway-child.js";
import { payloadOf, TEST_TOKEN } from "./helpers/gateway-sandbox.js";
import { createMemoryChannel } from "./helpers/memory-channel.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";
import { auditState } from "./helpers/turn-audit.js";

const BOT = "999:order-token";
const CHAT = 5150;
const SESSION = `agent:main:telegram:direct:${CHAT}`;

const children = gatewayChildren();
let model: FakeOpenAI | undefined;
let telegram: FakeTelegram | undefined;
const homes: string[] = [];
afterEach(async () => {
  await children.killAll();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  await model?.close();
  await telegram?.close();
  model = undefined;
  telegram = undefined;
});

describe("recovery order across kill -9", () => {
  it("a resumed WS turn runs before the Telegram message queued behind it in its session", async () => {
    model = await startFakeOpenAI({ fallback: echoReply(0) });
    telegram = await startFakeTelegram();
    telegram.addBot(BOT, { id: 999000, username: "pincer_order_bot" });
    const sb = createCliSandbox();
    homes.push(sb.home);
    sb.writeConfig(
      JSON.stringify({
        models: fakeProviderConfig(model.baseUrl),
        agents: {
          defaults: { model: "fake/m1", workspace: join(sb.home, "ws"), skipBootstrap: true },
          list: [{ id: "main" }],
        },
        gateway: { auth: { mode: "token", token: TEST_TOKEN } },
        session: { dmScope: "per-channel-peer" },
        channels: {
          telegram: {
            apiRoot: telegram.apiRoot,
            botToken: BOT,
            dmPolicy: "open",
            allowFrom: ["*"],
          },
        },
      }),
    );
    const tg = telegram;
    const polling = () => {
      const polls = tg.callsOf("getUpdates").length;
      return () => tg.callsOf("getUpdates").length > polls;
    };
    model.hang();
    const first = await children.start(sb.env, polling());
    const client = await connectedClient(first.url);
    const turn = { message: "question w0n0", idempotencyKey: "order-1", sessionKey: SESSION };
    const ack = await client.request("agent", turn);
    expect(payloadOf(ack).status).toBe("accepted");
    await waitUntil(() => model!.chatRequests.length === 1, "the turn's model call");
    // A message from the chat whose session is busy: journaled, held behind the turn.
    const updateId = tg.pushMessage(
      BOT,
      privateMessage({ text: "hello t0n1", from: { id: CHAT, first_name: "Bo" } }),
    );
    await waitUntil(
      () => tg.callsOf("getUpdates").some((c) => Number(c.params.offset) > updateId),
      "the message to be acknowledged",
    );
    await children.kill(first);

    const second = await children.start(sb.env, polling());
    const again = await connectedClient(second.url);
    const waited = await again.request(
      "agent.wait",
      { runId: "order-1", timeoutMs: 20_000 },
      30_000,
    );
    expect(payloadOf(waited)).toMatchObject({ status: "ok" });
    await waitUntil(() => tg.callsOf("sendMessage").length === 1, "the reply to the message");
    again.close();
    await children.stop(second);

    expect(tg.callsOf("sendMessage").map((c) => c.params.text)).toEqual(["ack t0n1"]);
    const audit = auditState(sb.stateDir);
    expect(audit.runs.get("order-1")).toMatchObject({ prompts: 1, replies: 1, errors: 0 });
    expect(audit.runs.get("order-1")?.text).toBe("ack w0n0");
  }, 60_000);

  it("starts no channel account before the resumed turns are in their lanes", async () => {
    const home = mkdtempSync(join(tmpdir(), "pincer-order-"));
    homes.push(home);
    const stateDir = join(home, ".openclaw");
    writeFileAtomic(join(stateDir, "openclaw.json"), JSON.stringify({ channels: { memory: {} } }));
    const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
    const loaded = loadConfig({ env });
    const lock = acquireStateDirLock({ stateDir });
    const logger = silentLogger;
    const config = () => loaded.config;
    const runtime = new RunResources({
      config: () => loaded.resolved,
      paths: loaded.paths,
      env,
      lock,
      logger,
    });
    const memory = createMemoryChannel();
    let resumed = () => {};
    const turnsResumed = new Promise<void>((resolve) => {
      resumed = resolve;
    });
    const channels = new GatewayChannels({
      options: { loaders: { memory: async () => memory.adapter } },
      ...{ config, stateDir, env, logger, runtime, now: Date.now, emit: () => {} },
      runs: new RunTracker({ runtime, logger, now: Date.now, emit: () => {} }),
      turnsResumed: () => turnsResumed,
      pairing: createPairingAccess({ stateDir, now: Date.now, logger }),
    });
    const started = channels.sync();
    // Long enough for the host to load and start its accounts if nothing held it back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(memory.running()).toEqual([]);
    resumed();
    await started;
    expect(memory.running()).toEqual(["default"]);
    await channels.stop();
    await runtime.close();
    lock.release();
  });
});
