// Channels end to end through the real gateway (port 0, fake OpenAI server) and the in-memory
// channel adapter: DM pairing (code once, approve via the CLI, next DM runs), group mention gating
// with kept context, broadcast fan-out, delivery retry and the delivery.failed event.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { deliveryFailuresPath } from "../src/channels/delivery/failure-log.js";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { createGatewaySandbox, type GatewaySandbox, payloadOf } from "./helpers/gateway-sandbox.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

/** Runs `pincer argv` in-process against the gateway sandbox's home and state dir. */
const cli = (env: Record<string, string>, argv: string[]) => createCliSandbox(env).run(argv);

async function start(memory: MemoryChannel, channels: Record<string, unknown>, extra = {}) {
  const helperWorkspace = makeTempDir("pincer-helper-");
  box = await createGatewaySandbox({
    config: () => ({
      channels: { memory: channels } as OpenClawConfig["channels"],
      agents: {
        list: [
          { id: "main", groupChat: { mentionPatterns: ["@bot\\b"] } },
          { id: "helper", workspace: helperWorkspace },
        ],
      },
      ...extra,
    }),
    options: {
      channels: {
        loaders: { memory: async () => memory.adapter },
        timing: { retry: { minDelayMs: 5, jitter: 0 } },
      },
    },
  });
  await memory.waitForAccount("default");
  return box;
}

function transcriptText(sandbox: GatewaySandbox, agentId: string, sessionKey: string): string {
  const store = sandbox.gw.core.runtime.stores.forAgent(agentId);
  const read = store.readTranscript(sessionKey);
  return JSON.stringify(read?.entries ?? []);
}

describe("channels through the gateway", () => {
  it("pairs an unknown DM sender once, and runs their next DM after a CLI approval", async () => {
    const memory = createMemoryChannel();
    const sandbox = await start(memory, { dmPolicy: "pairing" });
    await memory.inject({ peer: { kind: "direct", id: "42" }, text: "hello?" });
    const [codeReply] = await memory.waitForSent(1);
    const code = /Pairing code: ([A-Z2-9]{8})/.exec(codeReply!.message.text ?? "")?.[1];
    expect(code).toBeDefined();
    expect(codeReply!.message.target.peer).toEqual({ kind: "direct", id: "42" });
    await memory.inject({ peer: { kind: "direct", id: "42" }, text: "hello again" });
    expect(memory.sent).toHaveLength(1);
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    expect(existsSync(join(sandbox.stateDir, "credentials", "memory-pairing.json"))).toBe(true);

    const listed = await cli(sandbox.env, ["pairing", "list", "--json"]);
    expect(JSON.parse(listed.stdout).requests[0]).toMatchObject({
      channel: "memory",
      code,
      id: "42",
    });
    const client = await sandbox.connect();
    const viaGateway = payloadOf(
      await client.request("channels.pairing.list", { channel: "memory" }),
    );
    expect(viaGateway.requests.map((r: { code: string }) => r.code)).toEqual([code]);
    const approved = await cli(sandbox.env, ["pairing", "approve", "memory", code!]);
    expect(approved.code).toBe(0);
    expect(existsSync(join(sandbox.stateDir, "credentials", "memory-allowFrom.json"))).toBe(true);
    const dismissed = await client.request("channels.pairing.dismiss", {
      channel: "memory",
      code: code!,
    });
    expect(dismissed.ok).toBe(false);

    sandbox.fake.text("Welcome aboard");
    const inbound = await memory.inject({ peer: { kind: "direct", id: "42" }, text: "now?" });
    const sent = await memory.waitForSent(2);
    expect(sent[1]!.message).toMatchObject({
      text: "Welcome aboard",
      target: {
        accountId: "default",
        peer: { kind: "direct", id: "42" },
        replyToId: inbound.messageId,
      },
    });
    const entry = sandbox.gw.core.runtime.stores.forAgent("main").get("agent:main:main");
    expect(entry).toMatchObject({ lastChannel: "memory", lastTo: "42", lastAccountId: "default" });
    expect(transcriptText(sandbox, "main", "agent:main:main")).toContain("now?");
  });

  it("keeps unmentioned group messages as context and runs on a mention", async () => {
    const memory = createMemoryChannel();
    const sandbox = await start(memory, { groupPolicy: "allowlist", groups: { g1: {} } });
    const group = { kind: "group" as const, id: "g1" };
    await memory.inject({ peer: group, sender: { id: "7", name: "Ann" }, text: "lunch at noon" });
    await memory.inject({ peer: { kind: "group", id: "other" }, text: "@bot not allowed here" });
    expect(sandbox.fake.chatRequests).toHaveLength(0);
    sandbox.fake.text("Noon works");
    await memory.inject({ peer: group, sender: { id: "8", name: "Bo" }, text: "@bot ok?" });
    const [reply] = await memory.waitForSent(1);
    expect(reply!.message.target.peer).toEqual(group);
    const prompt = JSON.stringify(sandbox.fake.chatRequests[0]!.body);
    expect(prompt).toContain("Ann: lunch at noon");
    expect(prompt).toContain("Bo: @bot ok?");
    expect(memory.typing.some((t) => t.target.peer.id === "g1")).toBe(true);
    // The context was consumed: the next mention carries no history block.
    sandbox.fake.text("Again");
    await memory.inject({ peer: group, sender: { id: "8", name: "Bo" }, text: "@bot again" });
    await memory.waitForSent(2);
    const messages = sandbox.fake.chatRequests[1]!.body!.messages as Array<{ content: unknown }>;
    expect(messages.at(-1)!.content).toBe("Bo: @bot again");
  });

  it("fans a broadcast group out to every listed agent, each in its own session", async () => {
    const memory = createMemoryChannel();
    const sandbox = await start(
      memory,
      { groupPolicy: "open", requireMention: false },
      { broadcast: { strategy: "parallel", "memory:g2": ["main", "helper"] } },
    );
    sandbox.fake.text("one");
    sandbox.fake.text("two");
    await memory.inject({ peer: { kind: "group", id: "g2" }, text: "everyone?" });
    const sent = await memory.waitForSent(2);
    expect(sent.map((s) => s.message.text).sort()).toEqual(["one", "two"]);
    for (const s of sent) expect(s.message.target.peer).toEqual({ kind: "group", id: "g2" });
    expect(transcriptText(sandbox, "main", "agent:main:memory:group:g2")).toContain("everyone?");
    expect(transcriptText(sandbox, "helper", "agent:helper:memory:group:g2")).toContain(
      "everyone?",
    );
  });

  it("passes a downloaded photo to the model as an image", async () => {
    const memory = createMemoryChannel();
    const sandbox = await start(
      memory,
      { dmPolicy: "open", allowFrom: ["*"] },
      { agents: { defaults: { model: "fake/vision" }, list: [{ id: "main" }] } },
    );
    sandbox.fake.text("a red dot");
    const pixel = Buffer.from("fake-png-bytes").toString("base64");
    await memory.inject({
      peer: { kind: "direct", id: "7" },
      text: "what is this?",
      media: [{ kind: "image", mimeType: "image/png", data: pixel }],
    });
    await memory.waitForSent(1);
    const body = JSON.stringify(sandbox.fake.chatRequests[0]?.body);
    expect(body).toContain(`data:image/png;base64,${pixel}`);
    expect(body).toContain("what is this?");
    const client = await sandbox.connect();
    const status = payloadOf(await client.request("status"));
    expect(status.channels).toEqual([
      expect.objectContaining({ id: "memory", running: true, accounts: 1, connected: 1 }),
    ]);
  });

  it("retries a retryable send, and reports a permanent failure once (event + log)", async () => {
    const memory = createMemoryChannel();
    const sandbox = await start(memory, { dmPolicy: "open", allowFrom: ["*"] });
    const client = await sandbox.connect();
    memory.failNext(1, { message: "429", retryable: true, retryAfterMs: 10 });
    sandbox.fake.text("after retry");
    await memory.inject({ peer: { kind: "direct", id: "5" }, text: "hi" });
    await memory.waitForSent(1);
    expect(memory.attempts.map((a) => a.result.ok)).toEqual([false, true]);
    // The channel run is visible to gateway clients on its session, like a WebChat run.
    const final = await client.waitFor(
      (f) => f.type === "event" && f.event === "chat" && payloadOf(f).state === "final",
    );
    expect(payloadOf(final)).toMatchObject({ sessionKey: "agent:main:main", agentId: "main" });

    memory.failNext(1, { message: "chat not found", retryable: false, code: "400" });
    sandbox.fake.text("lost reply");
    await memory.inject({ peer: { kind: "direct", id: "5" }, text: "again" });
    const event = await client.waitFor((f) => f.type === "event" && f.event === "delivery.failed");
    expect(payloadOf(event)).toMatchObject({
      channel: "memory",
      accountId: "default",
      peer: { kind: "direct", id: "5" },
      error: "chat not found",
      attempts: 1,
      text: "lost reply",
    });
    expect(memory.attempts).toHaveLength(3);
    const log = readFileSync(deliveryFailuresPath(sandbox.stateDir), "utf8").trim().split("\n");
    expect(log).toHaveLength(1);
    const status = payloadOf(await client.request("channels.status"));
    expect(status.channelAccounts.memory[0]).toMatchObject({
      accountId: "default",
      running: true,
      connected: true,
      lastError: "delivery failed: chat not found",
    });
    const sendRes = await client.request("send", {
      to: "group:g9",
      message: "operator note",
      channel: "memory",
      idempotencyKey: "s-1",
    });
    expect(payloadOf(sendRes)).toMatchObject({ channel: "memory", accountId: "default" });
    const again = await client.request("send", {
      to: "group:g9",
      message: "operator note",
      idempotencyKey: "s-1",
    });
    expect(payloadOf(again).messageId).toBe(payloadOf(sendRes).messageId);
    expect(memory.sent.filter((s) => s.message.text === "operator note")).toHaveLength(1);
    const viaCli = await cli(sandbox.env, [
      "message",
      "send",
      "--url",
      sandbox.gw.url,
      "--channel",
      "memory",
      "--to",
      "7",
      "-m",
      "from the cli",
      "--json",
    ]);
    expect(viaCli.code).toBe(0);
    expect(memory.sent.at(-1)!.message).toMatchObject({
      text: "from the cli",
      target: { peer: { kind: "direct", id: "7" } },
    });
    const statusCli = await cli(sandbox.env, [
      "channels",
      "status",
      "--url",
      sandbox.gw.url,
      "--probe",
    ]);
    expect(statusCli.stdout).toContain("memory/default  connected");
  });
});
