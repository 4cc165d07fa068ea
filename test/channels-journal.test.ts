// The inbound journal end to end through the real gateway (port 0, fake OpenAI server) and the
// in-memory channel: a message whose run was cut by a shutdown, and one still held in its session's
// queue, are answered exactly once after a restart on the same state dir; the same message delivered
// again after the restart is not answered twice; nothing is left unsettled.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openDeliveryQueue } from "../src/channels/delivery/delivery-queue.js";
import { DEFAULT_RETRY_POLICY } from "../src/channels/delivery/send-retry.js";
import { openInboundJournal } from "../src/channels/inbound/inbound-journal.js";
import { inboundDedupeKey } from "../src/channels/inbound/redelivery-filter.js";
import type { ChannelInbound, OutboundMessage, SendResult } from "../src/channels/types.js";
import { type GatewayHandle, startGateway } from "../src/gateway/index.js";
import { writeFileAtomic } from "../src/lib/atomic-write.js";
import { silentLogger } from "../src/lib/logger.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  openClient,
  payloadOf,
} from "./helpers/gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";

let box: GatewaySandbox | undefined;
let restarted: GatewayHandle | undefined;
afterEach(async () => {
  await restarted?.close("test done");
  await box?.close();
  restarted = undefined;
  box = undefined;
});

const silentLog = silentLogger;
const dm = { kind: "direct" as const, id: "5" };

/** What a process killed mid-reply leaves behind: the message accepted but not settled, and its
 *  reply planned in the delivery queue with `sent` parts out and the next one cut mid-send. */
function leaveCrashedReply(params: {
  stateDir: string;
  inbound: ChannelInbound;
  agentId: string;
  sessionKey: string;
  parts: string[];
  sent: number;
}): void {
  const journal = openInboundJournal({ stateDir: params.stateDir, log: silentLog });
  const key = inboundDedupeKey(params.inbound);
  journal.accept(key, params.inbound);
  journal.close();
  let calls = 0;
  const queue = openDeliveryQueue({
    stateDir: params.stateDir,
    clock: { now: Date.now, sleep: async () => {} },
    log: silentLog,
    emit: () => {},
    runtimeFor: () => ({
      send: (): Promise<SendResult> =>
        ++calls <= params.sent
          ? Promise.resolve({ ok: true, receipt: { messageId: `old-${calls}` } })
          : new Promise(() => {}), // the kill lands here: no result is ever recorded
    }),
    policyFor: () => DEFAULT_RETRY_POLICY,
  });
  const target = { accountId: params.inbound.accountId, peer: params.inbound.peer };
  const messages: OutboundMessage[] = params.parts.map((text) => ({ target, text }));
  void queue.deliver({
    channel: params.inbound.channel,
    accountId: params.inbound.accountId,
    messages,
    inboundKeys: [key],
    agentId: params.agentId,
    sessionKey: params.sessionKey,
  });
}

const inboundOf = (peer: ChannelInbound["peer"], text: string): ChannelInbound => ({
  channel: "memory",
  accountId: "default",
  messageId: `m-${text.length}-${peer.id}`,
  timestamp: 1_700_000_000_000,
  sender: { id: "5" },
  peer,
  text,
  mentions: [],
  mentionedSelf: false,
  media: [],
});

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
      timing: { retry: { minDelayMs: 5, jitter: 0 } },
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

  it("never re-runs or re-sends a reply recorded before a crash: unsent parts go out, the cut one is reported", async () => {
    const memory = createMemoryChannel();
    const inbound = inboundOf(dm, "a question answered in three parts");
    box = await createGatewaySandbox({
      config: () => ({
        channels: { memory: { dmPolicy: "open", allowFrom: ["*"] } } as OpenClawConfig["channels"],
      }),
      options: { channels: { loaders: { memory: async () => createMemoryChannel().adapter } } },
    });
    await box.gw.close("before the crash fixture");
    leaveCrashedReply({
      stateDir: box.stateDir,
      inbound,
      agentId: "main",
      sessionKey: "agent:main:main",
      parts: ["part one", "part two", "part three"],
      sent: 1,
    });
    box.fake.text("a second answer must not be produced");
    restarted = await restart(box, memory);
    const [sent] = await memory.waitForSent(1);
    expect(sent!.message.text).toBe("part three");
    const client = await openClient(restarted.url);
    await client.request("connect", connectParams());
    const failures = payloadOf(await client.request("channels.failures.list", {}));
    expect(failures.entries).toEqual([
      expect.objectContaining({
        part: 2,
        state: "uncertain",
        code: "interrupted",
        text: "part two",
      }),
    ]);
    client.close();
    await restarted.close("test done");
    restarted = undefined;
    expect(memory.sent.map((s) => s.message.text)).toEqual(["part three"]);
    expect(box.fake.chatRequests).toHaveLength(0);
    const journal = openInboundJournal({ stateDir: box.stateDir, log: silentLog });
    expect(journal.pending()).toEqual([]);
    journal.close();
  });

  it("runs only the broadcast agents whose reply was not recorded before the crash", async () => {
    const memory = createMemoryChannel();
    const group = { kind: "group" as const, id: "g7" };
    const inbound = inboundOf(group, "everyone, status?");
    box = await createGatewaySandbox({
      config: () => ({
        channels: {
          memory: { groupPolicy: "open", requireMention: false },
        } as OpenClawConfig["channels"],
        agents: { list: [{ id: "main" }, { id: "helper" }] },
        broadcast: { strategy: "parallel", "memory:g7": ["main", "helper"] },
      }),
      options: { channels: { loaders: { memory: async () => createMemoryChannel().adapter } } },
    });
    await box.gw.close("before the crash fixture");
    leaveCrashedReply({
      stateDir: box.stateDir,
      inbound,
      agentId: "main",
      sessionKey: "agent:main:memory:group:g7",
      parts: ["main's answer"],
      sent: 1,
    });
    box.fake.text("helper's answer");
    restarted = await restart(box, memory);
    const replies = await memory.waitForSent(1);
    await restarted.close("test done");
    restarted = undefined;
    expect(replies.map((r) => r.message.text)).toEqual(["helper's answer"]);
    expect(memory.sent).toHaveLength(1);
    expect(box.fake.chatRequests).toHaveLength(1);
    const journal = openInboundJournal({ stateDir: box.stateDir, log: silentLog });
    expect(journal.pending()).toEqual([]);
    journal.close();
  });
});
