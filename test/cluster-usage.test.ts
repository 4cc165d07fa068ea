// Usage records and budgets for turns run on workers (a private nats-server, an in-process gateway
// with `cluster.queue`, `pincer worker` spawned from dist: run `npm run build` first). The fake model
// reports usage figures and a custom provider prices them (as test/usage-budget-gateway.test.ts):
// each worker turn lands once in the gateway's usage log (also when its worker is killed mid-turn
// and the turn is redelivered), a reached daily budget answers the next turn on the gateway with the
// blocked reply and no model call, fallback publishes the turn on the other model, and perTurnTokens
// stops a multi-call turn on the worker.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "nats";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import {
  type ClusterSandbox,
  createClusterSandbox,
  type Frame,
  RpcClient,
  type WorkerChild,
} from "./helpers/cluster-sandbox.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-usage tests");

/** `fake/m1` costs $1 per 1,000 prompt tokens; `fake/cheap` a tenth of that. */
function pricedModels(baseUrl: string): OpenClawConfig["models"] {
  const model = (id: string, input: number) => ({
    id,
    name: id,
    contextWindow: 32000,
    maxTokens: 1024,
    cost: { input, output: 0, cacheRead: 0, cacheWrite: 0 },
  });
  return {
    mode: "merge",
    providers: {
      fake: {
        baseUrl,
        apiKey: "sk-test",
        api: "openai-completions",
        models: [model("m1", 1000), model("cheap", 100)],
      },
    },
  };
}

const usage = { prompt_tokens: 1000, completion_tokens: 10 };

let box: ClusterSandbox | undefined;
let client: RpcClient | undefined;
afterEach(async () => {
  client?.close();
  client = undefined;
  await box?.close();
  box = undefined;
}, 60_000);

async function workersSeen(rpc: RpcClient): Promise<number> {
  const status = await rpc.request("status");
  return status.payload?.cluster?.queue?.workers?.length ?? 0;
}

type Started = ClusterSandbox & { spawnWorkerHandles: WorkerChild[] };

async function start(budget?: Record<string, unknown>, workers = 1): Promise<Started> {
  const spawned: WorkerChild[] = [];
  box = await createClusterSandbox({
    stream: "PINCER_USAGE",
    models: pricedModels,
    ...(budget ? { budget } : {}),
  });
  for (let i = 0; i < workers; i++) spawned.push(box.spawnWorker(2));
  client = await RpcClient.connect(box.gw.url);
  const rpc = client;
  await waitUntil(async () => (await workersSeen(rpc)) === workers, "workers in status", 30_000);
  return Object.assign(box, { spawnWorkerHandles: spawned });
}

async function say(message: string, key: string): Promise<{ text: string; result: Frame }> {
  if (!client) throw new Error("no client");
  const frame = await client.request(
    "agent",
    { sessionKey: "usage-1", message, idempotencyKey: key },
    { final: true },
  );
  expect(frame.ok, JSON.stringify(frame.error)).toBe(true);
  const result = frame.payload.result;
  return { text: result.payloads?.[0]?.text ?? "", result };
}

async function cost(): Promise<Frame> {
  if (!client) throw new Error("no client");
  const frame = await client.request("usage.cost", { days: 7 });
  expect(frame.ok, JSON.stringify(frame.error)).toBe(true);
  return frame.payload;
}

/** One chat.send on session `main` and the text of its final chat event (notices included). */
async function chat(message: string, runId: string): Promise<string> {
  const rpc = client as RpcClient;
  let stop: () => void = () => {};
  const final = new Promise<Frame>((resolve) => {
    stop = rpc.onEvent((frame) => {
      const payload = frame.payload ?? {};
      if (frame.event === "chat" && payload.runId === runId && payload.state !== "delta")
        resolve(payload);
    });
  });
  const ack = await rpc.request("chat.send", {
    sessionKey: "main",
    message,
    idempotencyKey: runId,
  });
  expect(ack.ok, JSON.stringify(ack.error)).toBe(true);
  const event = await final;
  stop();
  expect(event.state).toBe("final");
  const content = (event.message?.content ?? []) as Array<{ text?: string }>;
  return content.map((part) => part.text ?? "").join("");
}

/** The gateway's usage log lines (flushed by usage.cost). */
function usageLines(sandbox: ClusterSandbox): Frame[] {
  const dir = join(sandbox.home, "gateway", "agents", "main", "usage");
  return readdirSync(dir).flatMap((name) =>
    readFileSync(join(dir, name), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Frame),
  );
}

describe.skipIf(!available)("usage and budgets of turns on workers", () => {
  it("logs each worker turn once in the gateway's usage log, also when a result comes twice", async () => {
    const sandbox = await start();
    // A second connection records the results as they go by, to send one of them again.
    const nc = await connect({ servers: sandbox.nats.url });
    const results: Uint8Array[] = [];
    const sub = nc.subscribe("ptest.results", { callback: (_err, msg) => results.push(msg.data) });
    await nc.flush();
    try {
      sandbox.fake.text("one", { usage }).text("two", { usage }).text("three", { usage });
      expect((await say("first", "u-1")).text).toBe("one");
      expect((await say("second", "u-2")).text).toBe("two");
      await waitUntil(() => results.length >= 2, "both results seen");
      const first = JSON.parse(new TextDecoder().decode(results[0])) as Frame;
      expect(first.usage).toMatchObject({ runId: "u-1", input: 1000, status: "ok" });
      // The same result again (a republish): the gateway has it before the next turn's result.
      nc.publish("ptest.results", results[0]);
      await nc.flush();
      expect((await say("third", "u-3")).text).toBe("three");
    } finally {
      sub.unsubscribe();
      await nc.close();
    }
    const report = await cost();
    expect(report.totals.input).toBe(3000);
    expect(report.totals.totalCost).toBeCloseTo(3, 6);
    const lines = usageLines(sandbox);
    expect(lines.map((line) => line.runId).sort()).toEqual(["u-1", "u-2", "u-3"]);
    expect(lines[0]).toMatchObject({ status: "ok", provider: "fake", model: "m1", input: 1000 });
  }, 60_000);

  it("logs a turn once when its worker is killed mid-turn and another runs it", async () => {
    const sandbox = await start();
    const first = sandbox.spawnWorkerHandles[0];
    let open: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    // The first worker's call hangs until it is killed; the redelivered turn is answered by the next.
    sandbox.fake.enqueue({ kind: "gate", until: held, answer: { kind: "text", text: "lost" } });
    sandbox.fake.text("answered", { usage });
    const answer = say("killed mid-turn", "u-kill");
    await waitUntil(() => sandbox.fake.chatRequests.length === 1, "the turn reached the model");
    if (first) await sandbox.kill(first);
    sandbox.spawnWorker(2);
    expect((await answer).text).toBe("answered");
    open();
    expect((await cost()).totals.input).toBe(1000);
    const lines = usageLines(sandbox).filter((line) => line.runId === "u-kill");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ status: "ok", input: 1000 });
  }, 90_000);

  it("a reached daily budget answers the next turn with the blocked reply, never queued", async () => {
    const sandbox = await start({ daily: 1.5 });
    sandbox.fake.text("one", { usage }).text("two", { usage }).text("never sent", { usage });
    expect((await say("first", "b-1")).text).toBe("one");
    expect((await say("second", "b-2")).text).toBe("two");
    const blocked = await say("third", "b-3");
    expect(blocked.text).toContain("Budget reached");
    expect(blocked.text).toContain("$2.00 of its $1.50 daily budget");
    expect(sandbox.fake.chatRequests).toHaveLength(2);
    const report = await cost();
    expect(report.totals.totalCost).toBeCloseTo(2, 6);
    expect(usageLines(sandbox).map((line) => line.status)).toEqual(["ok", "ok", "blocked"]);
  }, 60_000);

  it("warn: the worker answers as usual with the notice under the reply in the chat", async () => {
    const sandbox = await start({ daily: 0.5, onExceed: "warn" });
    sandbox.fake.text("one", { usage }).text("two", { usage });
    expect(await chat("first", "w-1")).toBe("one");
    const warned = await chat("second", "w-2");
    expect(warned).toMatch(/^two\n\nBudget warning: agent "main" has spent \$1\.00 of its \$0\.50/);
    expect(sandbox.fake.chatRequests).toHaveLength(2);
    expect((await cost()).totals.input).toBe(2000);
  }, 60_000);

  it("fallback:<model> publishes the turn on the other model", async () => {
    const sandbox = await start({ monthly: 0.5, onExceed: "fallback:fake/cheap" });
    sandbox.fake.text("one", { usage }).text("two", { usage });
    expect((await say("first", "f-1")).text).toBe("one");
    const second = await say("second", "f-2");
    expect(second.text).toBe("two");
    expect(JSON.parse(sandbox.fake.chatRequests[1]?.rawBody ?? "{}").model).toBe("cheap");
    const report = await cost();
    expect(report.totals.totalCost).toBeCloseTo(1.1, 6);
  }, 60_000);

  it("perTurnTokens stops a multi-call turn on the worker before its next model call", async () => {
    const sandbox = await start({ perTurnTokens: 500 });
    sandbox.fake.toolCall("session_status", {}, { usage }).text("never sent");
    const reply = await say("loop", "p-1");
    expect(reply.text).toContain("this turn used 1010 tokens, its limit is 500");
    expect(reply.text).toContain("agents.defaults.budget.perTurnTokens");
    expect(sandbox.fake.chatRequests).toHaveLength(1);
    expect((await cost()).totals.input).toBe(1000);
    const lines = usageLines(sandbox);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ runId: "p-1", budget: "perTurnTokens", input: 1000 });
  }, 60_000);
});
