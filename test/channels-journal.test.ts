// The inbound journal end to end through the real gateway (port 0, fake OpenAI server) and the
// in-memory channel: a message whose run was cut by a shutdown, and one still held in its session's
// queue, are answered exactly once after a restart on the same state dir; the same message delivered
// again after the restart is not answered twice; nothing is left unsettled.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openInboundJournal } from "../src/channels/inbound/inbound-journal.js";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { writeFileAtomic } from "../src/lib/atomic-write.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";

let box: GatewaySandbox | undefined;
let restarted: GatewayHandle | undefined;
afterEach(async () => {
  await restarted?.close("test done");
  await box?.close();
  restarted = undefined;
  box = undefined;
});

const silentLog = { info() {}, warn() {}, error() {} };
const dm = { kind: "direct" as const, id: "5" };

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Starts a second gateway on the sandbox's home and state dir, with a fresh memory channel. */
async function restart(sandbox: GatewaySandbox, memory: MemoryChannel): Promise<GatewayHandle> {
  const gw = await startGateway({
    env: sandbox.env,
    port: 0,
    watchConfig: false,
    channels: {
      loaders: { memory: async () => memory.adapter },
      retry: { minDelayMs: 5, jitter: 0 },
    },
  });
  await memory.waitForAccount("default");
  return gw;
}

describe("inbound journal through the gateway", () => {
  it("answers a cut run and a held message once after a restart, and ignores a redelivery", async () => {
    const first = createMemoryChannel();
    box = await createGatewaySandbox({
      config: () => ({
        channels: { memory: { dmPolicy: "open", allowFrom: ["*"] } } as OpenClawConfig["channels"],
      }),
      options: {
        channels: { loaders: { memory: async () => first.adapter } },
        drainTimeoutMs: 50,
      },
    });
    await first.waitForAccount("default");
    const fake = box.fake;
    fake.hang();
    const cut = await first.inject({ peer: dm, text: "first question" });
    await waitUntil(() => fake.chatRequests.length === 1, "the first model call");
    // Held in the session's queue (collect mode) behind the hanging run.
    const held = await first.inject({ peer: dm, text: "second question" });
    await box.gw.close("restart");
    expect(first.sent).toHaveLength(0);

    fake.text("answer one");
    fake.text("answer two");
    const second = createMemoryChannel();
    restarted = await restart(box, second);
    const replies = await second.waitForSent(2);
    expect(replies.map((r) => [r.message.text, r.message.target.replyToId])).toEqual([
      ["answer one", cut.messageId],
      ["answer two", held.messageId],
    ]);

    // The platform redelivers the first message (its update was never acknowledged, say): ignored.
    await second.inject({ ...cut, raw: undefined });
    fake.text("answer three");
    const fresh = await second.inject({ peer: dm, messageId: "in-99", text: "third question" });
    const all = await second.waitForSent(3);
    expect(all[2]!.message).toMatchObject({
      text: "answer three",
      target: { replyToId: fresh.messageId },
    });
    expect(fake.chatRequests).toHaveLength(4);
    await restarted.close("test done");
    restarted = undefined;
    expect(second.sent).toHaveLength(3);

    const journal = openInboundJournal({ stateDir: box.stateDir, log: silentLog });
    expect(journal.pending()).toEqual([]);
    expect(journal.keys()).toHaveLength(3);
    journal.close();
  });

  it("settles a journaled message of an account that no longer exists as dropped", async () => {
    const first = createMemoryChannel();
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          memory: { dmPolicy: "open", allowFrom: ["*"], accounts: { old: {} } },
        } as OpenClawConfig["channels"],
      }),
      options: { channels: { loaders: { memory: async () => first.adapter } }, drainTimeoutMs: 50 },
    });
    await first.waitForAccount("old");
    box.fake.hang();
    await first.inject({ accountId: "old", peer: dm, text: "lost in a reconfiguration" });
    await waitUntil(() => box!.fake.chatRequests.length === 1, "the model call");
    await box.gw.close("restart");
    const before = openInboundJournal({ stateDir: box.stateDir, log: silentLog });
    expect(before.pending()).toHaveLength(1);
    before.close();

    const config = JSON.parse(readFileSync(box.configPath, "utf8"));
    config.channels.memory.accounts = { fresh: {} };
    writeFileAtomic(box.configPath, JSON.stringify(config));
    const second = createMemoryChannel();
    restarted = await startGateway({
      env: box.env,
      port: 0,
      watchConfig: false,
      channels: { loaders: { memory: async () => second.adapter } },
    });
    await second.waitForAccount("fresh");
    await restarted.close("test done");
    restarted = undefined;
    expect(second.sent).toHaveLength(0);
    expect(box.fake.chatRequests).toHaveLength(1);
    const journal = openInboundJournal({ stateDir: box.stateDir, log: silentLog });
    expect(journal.pending()).toEqual([]);
    journal.close();
  });
});
