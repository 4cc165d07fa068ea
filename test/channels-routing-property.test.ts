// Property: over random configs (agents, bindings on the peer / account / channel tiers, dmScope,
// several channels, accounts, peers and threads) and random message sequences through the real
// gateway, every reply reaches exactly the (channel, account, peer, thread) its message came from,
// once, and the message is stored in the routed agent's session and in no other agent's sessions.
import { afterEach, describe, expect, it } from "vitest";
import { routeInbound } from "../src/channels/inbound/route.js";
import type { ChannelInbound } from "../src/channels/types.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { echoStream } from "./helpers/echo-stream.js";
import { createGatewaySandbox, type GatewaySandbox } from "./helpers/gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** mulberry32: a small seeded PRNG, so a failing trial can be replayed by its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

const CHANNELS = ["alpha", "beta"] as const;
const ACCOUNTS = ["default", "x"] as const;
const AGENTS = ["a1", "a2", "a3"] as const;
const PEERS = [
  { kind: "direct", id: "d1" },
  { kind: "direct", id: "d2" },
  { kind: "group", id: "g1" },
  { kind: "group", id: "g2" },
] as const;
const DM_SCOPES = ["main", "per-peer", "per-channel-peer", "per-account-channel-peer"] as const;

function randomBindings(rand: ReturnType<typeof prng>) {
  const bindings: NonNullable<OpenClawConfig["bindings"]> = [];
  const count = Math.floor(rand.next() * 5);
  for (let i = 0; i < count; i++) {
    const tier = rand.pick(["peer", "account", "channel"] as const);
    const channel = rand.pick(CHANNELS);
    const agentId = rand.pick(AGENTS);
    if (tier === "peer") {
      const peer = rand.pick(PEERS);
      const accountId = rand.pick([undefined, "*", ...ACCOUNTS]);
      bindings.push({
        agentId,
        match: {
          channel,
          ...(accountId ? { accountId } : {}),
          peer: { kind: peer.kind, id: peer.id },
        },
      });
    } else if (tier === "account") {
      bindings.push({ agentId, match: { channel, accountId: rand.pick(ACCOUNTS) } });
    } else {
      bindings.push({ agentId, match: { channel, accountId: "*" } });
    }
  }
  return bindings;
}

interface Sent {
  origin: Pick<ChannelInbound, "channel" | "accountId" | "peer" | "threadId">;
  token: string;
  expectedAgent: string;
  expectedSession: string;
}

async function runTrial(seed: number): Promise<void> {
  const rand = prng(seed);
  const memories: Record<string, MemoryChannel> = Object.fromEntries(
    CHANNELS.map((id) => [id, createMemoryChannel({ id })]),
  );
  const workspaces = Object.fromEntries(AGENTS.map((id) => [id, makeTempDir(`pincer-${id}-`)]));
  const channelConfig = {
    dmPolicy: "open",
    allowFrom: ["*"],
    groupPolicy: "open",
    requireMention: false,
    accounts: { default: {}, x: {} },
  };
  const extra: Partial<OpenClawConfig> = {
    channels: Object.fromEntries(
      CHANNELS.map((id) => [id, channelConfig]),
    ) as OpenClawConfig["channels"],
    agents: { list: AGENTS.map((id) => ({ id, workspace: workspaces[id] })) },
    bindings: randomBindings(rand),
    session: { dmScope: rand.pick(DM_SCOPES) },
    messages: { queue: { mode: rand.pick(["collect", "followup"] as const), debounceMs: 0 } },
  };
  box = await createGatewaySandbox({
    config: () => extra,
    options: {
      streamFn: echoStream,
      channels: {
        loaders: Object.fromEntries(CHANNELS.map((id) => [id, async () => memories[id]!.adapter])),
      },
    },
  });
  for (const memory of Object.values(memories))
    for (const account of ACCOUNTS) await memory.waitForAccount(account);
  const cfg = box.gw.core.live.config;
  const sent: Sent[] = [];
  const messageCount = 10 + Math.floor(rand.next() * 8);
  await Promise.all(
    Array.from({ length: messageCount }, async (_, index) => {
      const channel = rand.pick(CHANNELS);
      const accountId = rand.pick(ACCOUNTS);
      const peer = { ...rand.pick(PEERS) };
      const threadId =
        peer.kind === "group" && rand.next() < 0.4 ? rand.pick(["t1", "t2"]) : undefined;
      const token = `tok${seed}x${index}`;
      const inbound = await memories[channel]!.inject({
        accountId,
        peer,
        ...(threadId ? { threadId } : {}),
        sender: { id: peer.kind === "direct" ? peer.id : `s${index % 3}` },
        text: `please echo ${token}`,
      });
      const routed = routeInbound(cfg, inbound);
      sent.push({
        origin: { channel, accountId, peer, ...(threadId ? { threadId } : {}) },
        token,
        expectedAgent: routed.route.agentId,
        expectedSession: routed.targets[0]!.sessionKey,
      });
    }),
  );
  const total = () => Object.values(memories).reduce((n, m) => n + m.sent.length, 0);
  const deadline = Date.now() + 15_000;
  const delivered = () =>
    sent.every((s) =>
      Object.values(memories).some((m) =>
        m.sent.some((r) => r.message.text?.includes(`${s.token}`)),
      ),
    );
  while (!delivered()) {
    if (Date.now() > deadline)
      throw new Error(`seed ${seed}: only ${total()} replies for ${sent.length} messages`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await box.gw.core.runtime.lanes.idle?.();
  for (const s of sent) {
    const hits = CHANNELS.flatMap((channel) =>
      memories[channel]!.sent.filter((r) =>
        new RegExp(`${s.token}(?!\\d)`).test(r.message.text ?? ""),
      ).map((r) => ({ channel, accountId: r.accountId, target: r.message.target })),
    );
    // Delivered once, to the exact origin.
    expect(hits, `seed ${seed} token ${s.token}`).toHaveLength(1);
    const [hit] = hits;
    expect({
      channel: hit!.channel,
      accountId: hit!.accountId,
      peer: hit!.target.peer,
      threadId: hit!.target.threadId,
    }).toEqual({
      channel: s.origin.channel,
      accountId: s.origin.accountId,
      peer: s.origin.peer,
      threadId: s.origin.threadId,
    });
    // Stored under the routed agent's session, and nowhere in other agents' sessions.
    for (const agentId of AGENTS) {
      const store = box.gw.core.runtime.stores.forAgent(agentId);
      const keys = store.list().map((row) => row.key);
      for (const key of keys) {
        const text = JSON.stringify(store.readTranscript(key)?.entries ?? []);
        const has = new RegExp(`${s.token}(?!\\d)`).test(text);
        const expected = agentId === s.expectedAgent && key === s.expectedSession;
        expect(has, `seed ${seed}: ${s.token} in ${agentId} ${key}`).toBe(expected);
      }
    }
  }
  await box.close();
  box = undefined;
}

describe("channel routing property", () => {
  it("delivers every reply to its exact origin and stores it in the routed session only", async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) await runTrial(seed);
  }, 120_000);
});
