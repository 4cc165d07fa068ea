// Delivery waits when a platform asks, through the real gateway (port 0), the fake Telegram Bot API
// and a virtual clock for the retry schedule (no real minutes pass, nothing asserts wall time): a 429
// is waited out for exactly its retry_after, the wait survives a gateway restart (persisted in the
// state dir) and the reply goes out once; a delivery that keeps failing dead-letters visibly (event,
// failures log, status) and `pincer channels failures` lists, retries and drops it.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { deliveryFailuresPath } from "../src/channels/delivery/failure-log.js";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { type FakeTelegram, startFakeTelegram } from "./helpers/fake-telegram.js";
import { privateMessage } from "./helpers/fake-telegram-updates.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
} from "./helpers/gateway-sandbox.js";
import { createMemoryChannel } from "./helpers/memory-channel.js";
import { startOpenMemoryGateway } from "./helpers/memory-gateway.js";
import { createVirtualClock } from "./helpers/virtual-clock.js";

const TOKEN = "111:delivery-token";
const BOT = { id: 111000, username: "pincer_delivery_bot" };

let box: GatewaySandbox | undefined;
let telegram: FakeTelegram | undefined;
let restarted: GatewayHandle | undefined;
afterEach(async () => {
  await restarted?.close("test done");
  await box?.close();
  await telegram?.close();
  restarted = undefined;
  box = undefined;
  telegram = undefined;
});

const cli = (env: Record<string, string>, argv: string[]) => createCliSandbox(env).run(argv);

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function telegramConfig(fake: FakeTelegram): Partial<OpenClawConfig> {
  return {
    channels: {
      telegram: {
        apiRoot: fake.apiRoot,
        botToken: TOKEN,
        dmPolicy: "open",
        allowFrom: ["*"],
        retry: { jitter: 0 },
      },
    } as OpenClawConfig["channels"],
  };
}

const sends = (fake: FakeTelegram) => fake.callsOf("sendMessage").map((c) => c.params.text);

describe("delivery retry schedule through the gateway", () => {
  it("waits out a 429 for exactly retry_after, across a restart, and sends the reply once", async () => {
    const fake = await startFakeTelegram();
    telegram = fake;
    fake.addBot(TOKEN, BOT);
    const clock = createVirtualClock({ holdAboveMs: 60_000 });
    box = await createGatewaySandbox({
      config: () => telegramConfig(fake),
      options: { channels: { timing: { deliveryClock: clock.clock } } },
    });
    await fake.waitForCall("getUpdates");
    fake.failNext("sendMessage", 1, {
      kind: "status",
      code: 429,
      description: "Too Many Requests: retry after 300",
      retryAfter: 300,
    });
    box.fake.text("worth the wait");
    fake.pushMessage(TOKEN, privateMessage({ text: "hello?" }));
    await clock.waitForSleep(300_000);
    expect(clock.held()).toEqual([300_000]);
    expect(sends(fake)).toEqual(["worth the wait"]);

    const client = await box.connect();
    const listed = payloadOf(await client.request("channels.failures.list", {}));
    expect(listed.entries).toEqual([
      expect.objectContaining({
        state: "queued",
        attempts: 1,
        nextAttemptAt: clock.now() + 300_000,
        text: "worth the wait",
      }),
    ]);
    const status = payloadOf(await client.request("channels.status"));
    expect(status.channelAccounts.telegram[0]).toMatchObject({ queuedDeliveries: 1 });
    client.close();

    // A restart in the middle of the wait: the schedule is on disk, the new process waits the rest.
    await box.gw.close("restart");
    expect(sends(fake)).toHaveLength(1);
    clock.advance(120_000);
    box.fake.text("must not be used: the turn is not run again");
    restarted = await startGateway({
      env: box.env,
      port: 0,
      watchConfig: false,
      channels: { timing: { deliveryClock: clock.clock } },
    });
    await clock.waitForSleep(180_000);
    expect(sends(fake)).toHaveLength(1);
    fake.failNext("sendMessage", 1, { kind: "status", code: 502, description: "Bad Gateway" });
    clock.releaseHeld();
    await waitUntil(() => sends(fake).length === 3, "the retries");
    expect(sends(fake)).toEqual(["worth the wait", "worth the wait", "worth the wait"]);
    expect(clock.sleeps).toEqual([300_000, 180_000, 2_000]);
    expect(box.fake.chatRequests).toHaveLength(1);
    await waitUntil(() => restarted!.core.channels.host!.failures.list().length === 0, "empty");
  });

  it("dead-letters a delivery that keeps failing; `channels failures` lists, retries and drops it", async () => {
    const memory = createMemoryChannel();
    const clock = createVirtualClock();
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          memory: {
            dmPolicy: "open",
            allowFrom: ["*"],
            retry: { attempts: 3, minDelayMs: 1_000, jitter: 0 },
          },
        } as OpenClawConfig["channels"],
      }),
      options: {
        channels: {
          loaders: { memory: async () => memory.adapter },
          timing: { deliveryClock: clock.clock },
        },
      },
    });
    await memory.waitForAccount("default");
    const client = await box.connect();
    memory.failNext(3, { message: "Bad Gateway", retryable: true, code: "502" });
    box.fake.text("stubborn reply");
    await memory.inject({ peer: { kind: "direct", id: "5" }, text: "hi" });
    const event = await client.waitFor((f) => f.type === "event" && f.event === "delivery.failed");
    expect(payloadOf(event)).toMatchObject({
      error: "Bad Gateway",
      attempts: 3,
      retryable: true,
      text: "stubborn reply",
    });
    expect(clock.sleeps).toEqual([1_000, 2_000]);
    const id = payloadOf(event).id as string;
    const log = readFileSync(deliveryFailuresPath(box.stateDir), "utf8").trim().split("\n");
    expect(log.map((line) => JSON.parse(line).id)).toEqual([id]);
    const status = payloadOf(await client.request("channels.status"));
    expect(status.channelAccounts.memory[0]).toMatchObject({
      failedDeliveries: 1,
      lastError: "delivery failed: Bad Gateway",
    });
    expect(status.deliveries).toEqual({ queued: 0, failed: 1, uncertain: 0 });

    const listed = await cli(box.env, ["channels", "failures", "--url", box.gw.url, "--json"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).entries).toEqual([
      expect.objectContaining({ id, state: "failed", attempts: 3, text: "stubborn reply" }),
    ]);
    const human = await cli(box.env, ["channels", "failures", "--url", box.gw.url]);
    expect(human.stdout).toContain(`${id}  failed  memory/default direct:5`);

    // A read-only operator can look but not act; bad requests name what is wrong.
    const reader = await box.connect({ scopes: ["operator.read"] });
    expect(payloadOf(await reader.request("channels.failures.list", {})).entries).toHaveLength(1);
    const refused = await reader.request("channels.failures.retry", { ids: [id] });
    expect(refused.error).toMatchObject({ code: "FORBIDDEN" });
    const empty = await client.request("channels.failures.retry", {});
    expect(empty.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: "ids or all is required",
    });
    const unknown = await client.request("channels.failures.drop", { ids: ["nope.1"] });
    expect((unknown.error as Loose).message).toContain("nope.1 (no such delivery in the queue)");
    reader.close();

    const retried = await cli(box.env, ["channels", "failures", "retry", id, "--url", box.gw.url]);
    expect(retried.stdout).toBe(`requeued: ${id}\n`);
    await memory.waitForSent(1);
    expect(memory.sent[0]!.message.text).toBe("stubborn reply");
    expect(payloadOf(await client.request("channels.failures.list", {})).entries).toEqual([]);

    memory.failNext(1, { message: "chat not found", retryable: false, code: "400" });
    box.fake.text("unwanted");
    await memory.inject({ peer: { kind: "direct", id: "5" }, text: "again" });
    await waitUntil(() => client.events("delivery.failed").length === 2, "the second failure");
    const dropped = await cli(box.env, [
      "channels",
      "failures",
      "drop",
      "--all",
      "--url",
      box.gw.url,
      "--json",
    ]);
    expect(JSON.parse(dropped.stdout).dropped).toHaveLength(1);
    expect(payloadOf(await client.request("channels.failures.list", {})).entries).toEqual([]);
    expect(
      readFileSync(deliveryFailuresPath(box.stateDir), "utf8").trim().split("\n"),
    ).toHaveLength(2);
    expect(memory.attempts).toHaveLength(5);
  });

  it("reports an uncertain send (timeout after the request) without retrying it", async () => {
    const started = await startOpenMemoryGateway();
    box = started.box;
    const { memory } = started;
    const client = await box.connect();
    memory.failNext(1, {
      message: "timed out",
      retryable: false,
      uncertain: true,
      code: "timeout",
    });
    box.fake.text("maybe delivered");
    await memory.inject({ peer: { kind: "direct", id: "9" }, text: "ping" });
    const event = await client.waitFor((f) => f.type === "event" && f.event === "delivery.failed");
    expect(payloadOf(event)).toMatchObject({ uncertain: true, retryable: false, attempts: 1 });
    expect(memory.attempts).toHaveLength(1);
    const status = payloadOf(await client.request("channels.status"));
    expect(status.channelAccounts.memory[0]).toMatchObject({
      uncertainDeliveries: 1,
      lastError: "delivery outcome unknown: timed out",
    });
    const shown = await cli(box.env, ["channels", "status", "--url", box.gw.url]);
    expect(shown.stdout).toContain("1 uncertain (may not have arrived)");
    expect(shown.stdout).toContain("see: pincer channels failures");
  });
});
