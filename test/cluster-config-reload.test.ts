// A worker's config is live like the gateway's: a `pincer worker` started without --concurrency
// watches openclaw.json; a valid change (the default model, a provider's baseUrl, maxConcurrent)
// applies to the next turn, an invalid one (an unknown model ref, a syntax error) is logged and the
// running config kept, and a change to `cluster.queue` is logged as needing a restart while the
// worker keeps pulling from the queue it started on. A private nats-server, an in-process gateway
// (not watching: the worker's reload is what is tested), one worker from dist (`npm run build`).
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../src/lib/atomic-write.js";
import {
  type ClusterSandbox,
  createClusterSandbox,
  RpcClient,
  type WorkerChild,
} from "./helpers/cluster-sandbox.js";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-config-reload tests");

/** The parts of the sandbox's openclaw.json these tests edit. */
interface Config {
  agents: { defaults: { model: string; maxConcurrent?: number } };
  models: { providers: { fake: { baseUrl: string } } };
  cluster: { queue: { stream: string } };
}

describe.skipIf(!available)("config reloads on a worker", () => {
  let box: ClusterSandbox;
  let client: RpcClient;
  let worker: WorkerChild;
  let other: FakeOpenAI;
  let turns = 0;

  // The last config written whole (the file may hold a broken one meanwhile).
  let written: Config | undefined;
  const editConfig = (edit: (config: Config) => void) => {
    const config = written ?? JSON.parse(readFileSync(box.configPath, "utf8"));
    edit(config);
    written = config;
    writeFileAtomic(box.configPath, JSON.stringify(config, null, 2));
  };
  const workerConcurrency = async (): Promise<number | undefined> =>
    (await client.request("status")).payload?.cluster?.queue?.workers?.[0]?.concurrency;
  const logged = (text: string, count = 1) =>
    waitUntil(() => worker.out.split(text).length - 1 >= count, `worker log: ${text}`, 20_000);
  /** Runs one turn and returns the model id the worker asked for. */
  const turn = async (fake: FakeOpenAI): Promise<string | undefined> => {
    const before = fake.chatRequests.length;
    const key = `reload-${++turns}`;
    const answered = await client.request(
      "agent",
      { sessionKey: key, message: `turn ${turns}`, idempotencyKey: key },
      { final: true },
    );
    expect(answered.ok, JSON.stringify(answered.error)).toBe(true);
    expect(fake.chatRequests.length).toBe(before + 1);
    return fake.chatRequests[before]?.body?.model as string | undefined;
  };

  beforeAll(async () => {
    box = await createClusterSandbox({ stream: "PINCER_RELOAD" });
    other = await startFakeOpenAI({ fallback: { kind: "text", text: "from the other server" } });
    worker = box.spawnWorker(null);
    client = await RpcClient.connect(box.gw.url);
    await waitUntil(
      async () => (await workerConcurrency()) !== undefined,
      "a worker in status",
      30_000,
    );
    await logged("worker ready");
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
    await other?.close();
  }, 60_000);

  it("applies a new default model and maxConcurrent to the next turn", async () => {
    expect(await workerConcurrency()).toBe(4);
    expect(await turn(box.fake)).toBe("m1");
    editConfig((config) => {
      config.agents.defaults.model = "fake/m2";
      config.agents.defaults.maxConcurrent = 2;
    });
    await logged("config reloaded");
    expect(await turn(box.fake)).toBe("m2");
    await waitUntil(
      async () => (await workerConcurrency()) === 2,
      "concurrency 2 in status",
      10_000,
    );
  }, 60_000);

  it("sends the next turn to a provider's new baseUrl", async () => {
    editConfig((config) => {
      config.models.providers.fake.baseUrl = other.baseUrl;
    });
    await logged("config reloaded", 2);
    expect(await turn(other)).toBe("m2");
  }, 60_000);

  it("keeps the running config when the file names an unknown model or does not parse", async () => {
    editConfig((config) => {
      config.agents.defaults.model = "fake/no-such-model";
    });
    await logged("config reload rejected");
    expect(await turn(other)).toBe("m2");
    writeFileSync(box.configPath, "{ agents: ");
    await logged("config reload rejected", 2);
    expect(await turn(other)).toBe("m2");
  }, 60_000);

  it("logs a cluster.queue change as needing a restart and keeps pulling from its queue", async () => {
    editConfig((config) => {
      config.agents.defaults.model = "fake/m1";
      config.cluster.queue.stream = "PINCER_ELSEWHERE";
    });
    await logged("config: cluster.queue changed; needs restart to take effect");
    expect(await turn(other)).toBe("m1");
  }, 60_000);
});
