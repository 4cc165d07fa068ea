// Steer mode reaches a turn running on a worker, end to end: a private nats-server, an in-process
// gateway with `cluster.queue` and the memory channel (queue mode steer), one `pincer worker` spawned
// from dist (run `npm run build` first). A message steered mid-turn is seen by the running turn's
// next model call and recorded once (a steer entry of that run); one the run never takes is
// answered by a follow-up turn, once.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClusterSandbox,
  createClusterSandbox,
  lastUserText,
  RpcClient,
  type WorkerChild,
} from "./helpers/cluster-sandbox.js";
import type { RecordedRequest } from "./helpers/fake-openai.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { createMemoryChannel, type MemoryChannel } from "./helpers/memory-channel.js";
import { OPEN_MEMORY_CHANNELS } from "./helpers/memory-gateway.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-steer tests");

// biome-ignore lint/suspicious/noExplicitAny: transcript lines are read without a schema type.
type Line = Record<string, any>;

/** Every transcript line of the worker's file store. */
function transcriptLines(stateDir: string): Line[] {
  const dir = join(stateDir, "agents", "main", "sessions");
  const lines: Line[] = [];
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n"))
      if (line) lines.push(JSON.parse(line));
  }
  return lines;
}

function userEntries(lines: Line[], text: string): Line[] {
  return lines.filter((line) => {
    const message = line.message;
    if (line.type !== "message" || message?.role !== "user") return false;
    const content = message.content;
    const flat =
      typeof content === "string"
        ? content
        : (content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
    return flat === text;
  });
}

function requestsEndingWith(requests: RecordedRequest[], text: string): RecordedRequest[] {
  return requests.filter((request) => lastUserText(request) === text);
}

function steerAnswers(worker: WorkerChild, status: string): number {
  return worker.out
    .split("\n")
    .filter((line) => line.includes("worker: steer answered") && line.includes(`"${status}"`))
    .length;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!available)("steer mode on workers", () => {
  let box: ClusterSandbox;
  let client: RpcClient;
  let worker: WorkerChild;
  let memory: MemoryChannel;

  beforeAll(async () => {
    memory = createMemoryChannel();
    box = await createClusterSandbox({
      stream: "PINCER_STEERTEST",
      extraConfig: {
        channels: OPEN_MEMORY_CHANNELS,
        messages: { queue: { mode: "steer", debounceMs: 0 } },
      },
      channels: { loaders: { memory: async () => memory.adapter } },
    });
    worker = box.spawnWorker(2);
    client = await RpcClient.connect(box.gw.url);
    await waitUntil(
      async () => {
        const status = await client.request("status");
        return (status.payload?.cluster?.queue?.workers?.length ?? 0) === 1;
      },
      "the worker in status",
      30_000,
    );
    await memory.waitForAccount("default");
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
  }, 60_000);

  it("a message steered mid-turn is seen by the running turn, recorded once, no follow-up", async () => {
    const peer = { kind: "direct" as const, id: "steer-1" };
    const sentBefore = memory.sent.length;
    await memory.inject({ peer, text: "slow first" });
    // The turn runs on the worker, its model call held.
    await waitUntil(
      () => requestsEndingWith(box.fake.chatRequests, "slow first").length === 1,
      "the first model call",
      20_000,
    );
    await memory.inject({ peer, text: "and also this" });
    await waitUntil(() => steerAnswers(worker, "accepted") === 1, "the steer accepted", 20_000);
    box.release();
    const [reply] = (await memory.waitForSent(sentBefore + 1, 20_000)).slice(sentBefore);
    expect(JSON.stringify(reply?.message)).toContain("echo: and also this");
    // The turn's second model call carries the steered message after the first answer.
    const steered = requestsEndingWith(box.fake.chatRequests, "and also this");
    expect(steered).toHaveLength(1);
    const roles = ((steered[0]?.body?.messages ?? []) as Array<{ role: string }>).map(
      (m) => m.role,
    );
    expect(roles.slice(-3)).toEqual(["user", "assistant", "user"]);
    // No follow-up turn: nothing else reaches the model or the channel.
    await settle(1500);
    expect(requestsEndingWith(box.fake.chatRequests, "and also this")).toHaveLength(1);
    expect(memory.sent.length).toBe(sentBefore + 1);
    const lines = transcriptLines(worker.stateDir);
    const [prompt] = userEntries(lines, "slow first");
    const entries = userEntries(lines, "and also this");
    expect(entries).toHaveLength(1);
    expect(entries[0]?.runId).toBeUndefined();
    expect(entries[0]?.steer).toEqual({ runId: prompt?.runId, id: `${prompt?.runId}.s0` });
  }, 60_000);

  it("a steer the run never takes (its last model call fails) is answered by one follow-up turn", async () => {
    const peer = { kind: "direct" as const, id: "steer-2" };
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => {
      fail = resolve;
    });
    const body = { error: { message: "bad request", type: "invalid_request_error" } };
    box.fake.enqueue({
      kind: "gate",
      until: failing,
      answer: { kind: "status", status: 400, body },
    });
    const accepted = steerAnswers(worker, "accepted");
    await memory.inject({ peer, text: "doomed first" });
    await waitUntil(
      () => requestsEndingWith(box.fake.chatRequests, "doomed first").length === 1,
      "the first model call",
      20_000,
    );
    await memory.inject({ peer, text: "then this" });
    await waitUntil(
      () => steerAnswers(worker, "accepted") === accepted + 1,
      "the steer accepted",
      20_000,
    );
    // The model call fails: the loop ends without a steering check, the steer stays untaken.
    fail();
    await waitUntil(
      () => requestsEndingWith(box.fake.chatRequests, "then this").length === 1,
      "the follow-up turn's model call",
      20_000,
    );
    await waitUntil(
      () => memory.sent.some((send) => JSON.stringify(send.message).includes("echo: then this")),
      "the follow-up's reply",
      20_000,
    );
    await settle(1500);
    expect(requestsEndingWith(box.fake.chatRequests, "then this")).toHaveLength(1);
    const lines = transcriptLines(worker.stateDir);
    const [doomed] = userEntries(lines, "doomed first");
    const entries = userEntries(lines, "then this");
    // Once, as the prompt of a turn of its own.
    expect(entries).toHaveLength(1);
    expect(entries[0]?.steer).toBeUndefined();
    expect(typeof entries[0]?.runId).toBe("string");
    expect(entries[0]?.runId).not.toBe(doomed?.runId);
  }, 60_000);
});
