// Runs on workers over NATS JetStream, end to end: a private nats-server, an in-process gateway
// with `cluster.queue`, and `pincer worker` processes spawned from dist (run `npm run build`
// first). Per-session order is asserted on the order the fake model received each session's
// prompts (from any worker), "answered once" on each prompt reaching the model once.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClusterSandbox,
  createClusterSandbox,
  lastUserText,
  RpcClient,
  workersSeen,
} from "./helpers/cluster-sandbox.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-workers tests");
const SESSIONS = 100;
const TURNS = Number(process.env.PINCER_CLUSTER_TURNS ?? 10);

/** Every transcript line of a worker's file store that is the prompt of `runId`. */
function promptLines(stateDir: string, runId: string): number {
  const dir = join(stateDir, "agents", "main", "sessions");
  let count = 0;
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (!line) continue;
      const entry = JSON.parse(line);
      if (entry.runId === runId && entry.message?.role === "user") count++;
    }
  }
  return count;
}

describe.skipIf(!available)("runs on workers over NATS JetStream", () => {
  let box: ClusterSandbox;
  let client: RpcClient;
  let workers: ReturnType<ClusterSandbox["spawnWorker"]>[];

  beforeAll(async () => {
    box = await createClusterSandbox();
    workers = [box.spawnWorker(4), box.spawnWorker(4)];
    client = await RpcClient.connect(box.gw.url);
    await waitUntil(async () => (await workersSeen(client)) === 2, "two workers in status", 30_000);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
  }, 60_000);

  it("answers every turn of 100 sessions once, in order per session, across two workers", async () => {
    const before = box.fake.chatRequests.length;
    // Every turn of every session is sent at once: the queue alone keeps each session in order.
    const turns = [];
    for (let s = 0; s < SESSIONS; s++) {
      for (let t = 0; t < TURNS; t++) {
        const message = `s${s} t${t}`;
        turns.push(
          client
            .request(
              "agent",
              { sessionKey: `load-${s}`, message, idempotencyKey: `load-${s}-${t}` },
              { final: true },
            )
            .then((frame) => ({ message, frame })),
        );
      }
    }
    const answers = await Promise.all(turns);
    for (const { message, frame } of answers) {
      expect(frame.ok, JSON.stringify(frame.error)).toBe(true);
      expect(frame.payload.status).toBe("ok");
      expect(frame.payload.result.payloads[0].text).toBe(`echo: ${message}`);
    }
    const prompts = box.fake.chatRequests.slice(before).map(lastUserText);
    const perSession = new Map<string, number[]>();
    for (const prompt of prompts) {
      const match = /^s(\d+) t(\d+)$/.exec(prompt);
      if (!match) continue;
      const list = perSession.get(match[1]!) ?? [];
      list.push(Number(match[2]));
      perSession.set(match[1]!, list);
    }
    expect(perSession.size).toBe(SESSIONS);
    const inOrder = Array.from({ length: TURNS }, (_, t) => t);
    for (const order of perSession.values()) expect(order).toEqual(inOrder);
    // Both workers took turns.
    for (const worker of workers) expect(worker.out).toMatch(/turn started/);
  }, 240_000);

  it("streams a chat.send to the WS client and answers agent.wait", async () => {
    const events: Array<Record<string, unknown>> = [];
    const stop = client.onEvent((frame) => {
      if (frame.event === "chat" && frame.payload?.runId === "stream-1") events.push(frame.payload);
    });
    const ack = await client.request("chat.send", {
      sessionKey: "stream",
      message: "hello there",
      idempotencyKey: "stream-1",
    });
    expect(ack.ok).toBe(true);
    const wait = await client.request("agent.wait", { runId: "stream-1", timeoutMs: 20_000 });
    expect(wait.payload.status).toBe("ok");
    await waitUntil(() => events.some((event) => event.state === "final"), "the chat final");
    stop();
    expect(events.some((event) => event.state === "delta")).toBe(true);
    const final = events.find((event) => event.state === "final") as {
      message: { content: Array<{ text: string }> };
    };
    expect(final.message.content.map((part) => part.text).join("")).toBe("echo: hello there");
  }, 60_000);

  it("chat.abort reaches the worker running the turn", async () => {
    const ack = await client.request("chat.send", {
      sessionKey: "abort",
      message: "slow abort turn",
      idempotencyKey: "abort-1",
    });
    expect(ack.ok).toBe(true);
    await waitUntil(
      () => box.fake.chatRequests.some((request) => lastUserText(request) === "slow abort turn"),
      "the model call",
    );
    const aborted = await client.request("chat.abort", { sessionKey: "abort", runId: "abort-1" });
    expect(aborted.ok).toBe(true);
    const wait = await client.request("agent.wait", { runId: "abort-1", timeoutMs: 20_000 });
    expect(wait.payload.status).toBe("error");
    // The worker's run ended too: the session's next turn runs although the model never answered.
    const next = await client.request(
      "agent",
      { sessionKey: "abort", message: "after abort", idempotencyKey: "abort-2" },
      { final: true },
    );
    expect(next.payload.result.payloads[0].text).toBe("echo: after abort");
    box.release();
    box.hold();
  }, 60_000);

  it("a worker killed mid-turn: the turn completes on the other one, once in its transcript", async () => {
    const pending = client.request(
      "agent",
      { sessionKey: "crash", message: "slow crash turn", idempotencyKey: "crash-1" },
      { final: true },
    );
    await waitUntil(
      () => workers.some((worker) => worker.out.includes('"runId":"crash-1"')),
      "a worker to take the turn",
    );
    const victim = workers.find((worker) => worker.out.includes('"runId":"crash-1"'))!;
    const survivor = workers.find((worker) => worker !== victim)!;
    await waitUntil(
      () => box.fake.chatRequests.some((request) => lastUserText(request) === "slow crash turn"),
      "the model call",
    );
    await box.kill(victim);
    box.release();
    const frame = await pending;
    expect(frame.payload.status).toBe("ok");
    expect(frame.payload.result.payloads[0].text).toBe("echo: slow crash turn");
    expect(survivor.out).toContain('"runId":"crash-1"');
    expect(promptLines(survivor.stateDir, "crash-1")).toBe(1);
    workers = [survivor, box.spawnWorker(4)];
  }, 60_000);

  it("NATS restarts: new turns are refused (retryable) while it is down, held turns resume", async () => {
    box.hold();
    const held = client.request(
      "agent",
      { sessionKey: "restart", message: "slow restart turn", idempotencyKey: "restart-1" },
      { final: true },
    );
    await waitUntil(
      () => box.fake.chatRequests.some((request) => lastUserText(request) === "slow restart turn"),
      "the held model call",
    );
    await box.nats.stop();
    await waitUntil(async () => {
      const status = await client.request("status");
      return status.payload?.cluster?.queue?.connected === false;
    }, "the gateway to see NATS down");
    const refused = await client.request(
      "agent",
      { sessionKey: "restart", message: "while down", idempotencyKey: "down-1" },
      { final: true },
    );
    expect(refused.ok).toBe(false);
    expect(refused.error.retryable).toBe(true);
    expect(refused.error.message).toMatch(/run queue unavailable/);
    await box.nats.start();
    box.release();
    const frame = await held;
    expect(frame.payload.status).toBe("ok");
    expect(frame.payload.result.payloads[0].text).toBe("echo: slow restart turn");
    // The same key is accepted now that NATS is back.
    const retried = await client.request(
      "agent",
      { sessionKey: "restart", message: "while down", idempotencyKey: "down-1" },
      { final: true },
    );
    expect(retried.payload.status).toBe("ok");
  }, 90_000);
});
