// Workers sharing sessions through PostgreSQL (cluster.store) over NATS JetStream (cluster.queue):
// a session's turns land on both workers, and each turn's model call carries the whole history
// written by whichever worker ran the earlier turns; a worker killed mid-turn leaves the turn to the
// other, which finds it in the shared transcript and records it once. Needs nats-server and
// PostgreSQL (skips loudly without them; required under CI=true) and `npm run build`.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClusterSandbox,
  createClusterSandbox,
  lastUserText,
  RpcClient,
} from "./helpers/cluster-sandbox.js";
import type { RecordedRequest } from "./helpers/fake-openai.js";
import { waitUntil } from "./helpers/gateway-child.js";
import { natsServerAvailable } from "./helpers/nats-server.js";
import { createTestDatabase } from "./helpers/postgres.js";

const natsOk = natsServerAvailable("cluster-postgres tests");
const db = natsOk ? await createTestDatabase("cluster") : undefined;
const SESSIONS = 20;
const TURNS = 5;

/** Every user text of a model request, in order. */
function userTexts(request: RecordedRequest): string[] {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages
    .filter((message) => message.role === "user")
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : (message.content as Array<{ text?: string }>).map((part) => part.text ?? "").join(""),
    );
}

describe.skipIf(!db)("workers sharing sessions in PostgreSQL", () => {
  let box: ClusterSandbox;
  let client: RpcClient;
  let workers: ReturnType<ClusterSandbox["spawnWorker"]>[];
  let sql: postgres.Sql;

  beforeAll(async () => {
    box = await createClusterSandbox({ pgUrl: db!.url, stream: "PINCER_PGTEST" });
    workers = [box.spawnWorker(4), box.spawnWorker(4)];
    client = await RpcClient.connect(box.gw.url);
    sql = postgres(db!.url, { max: 1, onnotice: () => {} });
    await waitUntil(
      async () => (await client.request("status")).payload?.cluster?.queue?.workers?.length === 2,
      "two workers in status",
      30_000,
    );
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await sql?.end({ timeout: 5 });
    await box?.close();
  }, 60_000);

  it("each turn sees the history the other worker wrote, in order", async () => {
    const turns = [];
    for (let s = 0; s < SESSIONS; s++) {
      for (let t = 0; t < TURNS; t++) {
        turns.push(
          client.request(
            "agent",
            { sessionKey: `pg-${s}`, message: `p${s} t${t}`, idempotencyKey: `pg-${s}-${t}` },
            { final: true },
          ),
        );
      }
    }
    for (const frame of await Promise.all(turns)) expect(frame.payload?.status).toBe("ok");
    for (let s = 0; s < SESSIONS; s++) {
      for (let t = 0; t < TURNS; t++) {
        const request = box.fake.chatRequests.find((r) => lastUserText(r) === `p${s} t${t}`);
        expect(request, `p${s} t${t} reached the model`).toBeDefined();
        // The prompt of turn t follows turns 0..t-1 of the same session, whoever ran them.
        expect(userTexts(request!)).toEqual(Array.from({ length: t + 1 }, (_, k) => `p${s} t${k}`));
      }
    }
    for (const worker of workers) expect(worker.out).toMatch(/turn started/);
  }, 120_000);

  it("a worker killed mid-turn: the other completes it, and PostgreSQL holds it once", async () => {
    const pending = client.request(
      "agent",
      { sessionKey: "pg-crash", message: "slow pg turn", idempotencyKey: "pg-crash-1" },
      { final: true },
    );
    await waitUntil(
      () => box.fake.chatRequests.some((request) => lastUserText(request) === "slow pg turn"),
      "the model call",
    );
    const victim = workers.find((worker) => worker.out.includes('"runId":"pg-crash-1"'))!;
    expect(victim).toBeDefined();
    await box.kill(victim);
    box.release();
    const frame = await pending;
    expect(frame.payload.status).toBe("ok");
    expect(frame.payload.result.payloads[0].text).toBe("echo: slow pg turn");
    const rows = await sql`
      select entry->'message'->>'role' as role from pincer.transcript_entries
      where entry->>'runId' = 'pg-crash-1' or entry->'message'->'content'->0->>'text' = 'echo: slow pg turn'`;
    const roles = rows.map((row) => row.role);
    expect(roles.filter((role) => role === "user")).toHaveLength(1);
    expect(roles.filter((role) => role === "assistant")).toHaveLength(1);
  }, 60_000);
});
