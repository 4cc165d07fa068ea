// A gateway with cluster.queue started while NATS is down: it serves clients, refuses turns with a
// retryable error (nothing journaled, so the same idempotencyKey works later), and connects on the
// first turn after NATS is up. Needs nats-server and `npm run build` (the worker runs from dist).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClusterSandbox, createClusterSandbox, RpcClient } from "./helpers/cluster-sandbox.js";
import { natsServerAvailable } from "./helpers/nats-server.js";

const available = natsServerAvailable("cluster-gateway tests");

describe.skipIf(!available)("a gateway started while NATS is down", () => {
  let box: ClusterSandbox;
  let client: RpcClient;

  beforeAll(async () => {
    box = await createClusterSandbox({ natsDown: true, stream: "PINCER_DOWNTEST" });
    client = await RpcClient.connect(box.gw.url);
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await box?.close();
  }, 60_000);

  it("refuses turns (retryable) until NATS is up, then runs them on a worker", async () => {
    const turn = { sessionKey: "late", message: "hello late", idempotencyKey: "late-1" };
    const refused = await client.request("agent", turn, { final: true });
    expect(refused.ok).toBe(false);
    expect(refused.error.retryable).toBe(true);
    expect(refused.error.message).toMatch(/run queue unavailable: cannot connect to NATS/);
    const status = await client.request("status");
    expect(status.payload.cluster.queue.connected).toBe(false);
    await box.nats.start();
    box.spawnWorker(2);
    const answered = await client.request("agent", turn, { final: true });
    expect(answered.ok, JSON.stringify(answered.error)).toBe(true);
    expect(answered.payload.result.payloads[0].text).toBe("echo: hello late");
  }, 60_000);
});
