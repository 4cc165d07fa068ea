// The `cron` and `nodes` tools of a turn that runs on a worker: the worker's tools call the gateway
// over NATS (`<prefix>.host`), which answers with its own cron service and node registry. A private
// nats-server, an in-process gateway, one `pincer worker` from dist (run `npm run build` first).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NatsQueue } from "../src/cluster/queue/nats-queue.js";
import { resolveQueueSettings } from "../src/cluster/queue/settings.js";
import { remoteToolHosts } from "../src/cluster/worker/remote-tool-hosts.js";
import { silentLogger } from "../src/lib/logger.js";
import {
  type ClusterSandbox,
  createClusterSandbox,
  RpcClient,
  toolResults,
  waitForWorkers,
} from "./helpers/cluster-sandbox.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-tool-hosts tests");

describe.skipIf(!available)("cron and nodes tools of turns on workers", () => {
  let box: ClusterSandbox;
  let client: RpcClient;

  beforeAll(async () => {
    box = await createClusterSandbox({
      stream: "PINCER_TOOLHOSTS",
      tools: { alsoAllow: ["nodes"] },
    });
    box.spawnWorker(2);
    client = await RpcClient.connect(box.gw.url);
    await waitForWorkers(client);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
  }, 60_000);

  it("adds a cron job on the gateway from a worker's turn, and the tool result names it", async () => {
    box.fake.toolCall("cron", {
      action: "add",
      job: {
        name: "Tea from a worker",
        schedule: { kind: "every", everyMs: 3_600_000 },
        sessionTarget: "main",
        payload: { kind: "systemEvent", text: "tea time" },
      },
    });
    box.fake.text("Reminder set.");
    const before = box.fake.chatRequests.length;
    const turn = { sessionKey: "cron-1", message: "remind me hourly", idempotencyKey: "cron-1" };
    const answered = await client.request("agent", turn, { final: true });
    expect(answered.ok, JSON.stringify(answered.error)).toBe(true);
    expect(answered.payload.result.payloads[0].text).toBe("Reminder set.");
    const listed = await client.request("cron.list", {});
    const job = listed.payload.jobs.find(
      (candidate: { name: string }) => candidate.name === "Tea from a worker",
    );
    expect(job).toMatchObject({ agentId: "main", sessionKey: "agent:main:cron-1" });
    const [result] = toolResults(box.fake.chatRequests[before + 1]);
    expect(result).toContain(job.id);
  }, 60_000);

  it("lists the gateway's node hosts from a worker's turn (nodes tool)", async () => {
    box.fake.toolCall("nodes", { action: "list" });
    box.fake.text("No nodes.");
    const before = box.fake.chatRequests.length;
    const turn = { sessionKey: "nodes-1", message: "which nodes?", idempotencyKey: "nodes-1" };
    const answered = await client.request("agent", turn, { final: true });
    expect(answered.ok, JSON.stringify(answered.error)).toBe(true);
    const [result] = toolResults(box.fake.chatRequests[before + 1]);
    expect(JSON.parse(result ?? "{}")).toEqual({ nodes: [] });
  }, 60_000);

  it("a cron call the gateway refuses comes back as the tool's error", async () => {
    box.fake.toolCall("cron", {
      action: "update",
      jobId: "no-such-job",
      patch: { enabled: false },
    });
    box.fake.text("Could not change it.");
    const before = box.fake.chatRequests.length;
    const turn = { sessionKey: "cron-2", message: "pause it", idempotencyKey: "cron-2" };
    const answered = await client.request("agent", turn, { final: true });
    expect(answered.ok, JSON.stringify(answered.error)).toBe(true);
    const [result] = toolResults(box.fake.chatRequests[before + 1]);
    expect(result).toMatch(/cron update failed: .*no-such-job/);
  }, 60_000);

  it("a tool call no gateway answers (another cluster's prefix) is an error answer, not a hang", async () => {
    const settings = resolveQueueSettings({
      kind: "nats",
      url: box.nats.url,
      subjectPrefix: "nobody",
    });
    const queue = await NatsQueue.open({ settings, name: "tool-hosts-test", logger: silentLogger });
    try {
      const hosts = remoteToolHosts({ queue: () => queue });
      const answer = await hosts.cronTools("main").call("cron.list", {});
      expect(answer).toEqual({
        ok: false,
        error:
          "no gateway answers tool calls on the run queue (is this cluster's gateway running?)",
      });
      const unconnected = remoteToolHosts({ queue: () => undefined });
      expect(await unconnected.nodeTools.call("node.list", {})).toEqual({
        ok: false,
        error: "the worker is not connected to the run queue",
      });
    } finally {
      await queue.close(silentLogger);
    }
  });
});
