// Cron jobs in a real PostgreSQL (cluster.store): a job added through a gateway lands in the
// `cron/jobs` document with jobs.json's shape (no jobs.json under the state dir), and a second gateway
// with an empty state dir on the same database lists it after its start.
import { existsSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";
import { createTestDatabase } from "./helpers/postgres.js";

const db = await createTestDatabase("sessions_pg_cron");
const sql = db ? postgres(db.url, { max: 1, onnotice: () => {} }) : undefined;
const boxes: GatewaySandbox[] = [];
afterAll(async () => {
  for (const box of boxes) await box.close();
  await sql?.end({ timeout: 5 });
});

async function gateway(): Promise<GatewaySandbox> {
  const box = await createGatewaySandbox({
    config: () => ({ cluster: { store: { kind: "postgres", url: db!.url, schema: "crongw" } } }),
  });
  boxes.push(box);
  return box;
}

async function call(client: TestClient, method: string, params: unknown): Promise<Loose> {
  const res = await client.request(method, params);
  if (!res.ok) throw new Error(`${method} failed: ${JSON.stringify(res.error)}`);
  return payloadOf(res);
}

describe.skipIf(!db)("cron jobs in PostgreSQL", () => {
  it("keeps the jobs in the cron/jobs document, seen by another gateway on the database", async () => {
    const first = await gateway();
    const client = await first.connect();
    // The service reads the document once started: poll until it accepts changes.
    let job: Loose | undefined;
    await expect
      .poll(async () => {
        const res = await client.request("cron.add", {
          name: "Morning brief",
          schedule: { kind: "every", everyMs: 3_600_000 },
          sessionTarget: "isolated",
          payload: { kind: "agentTurn", message: "Summarize overnight updates." },
        });
        if (res.ok) job = payloadOf(res);
        return res.ok;
      })
      .toBe(true);
    await expect
      .poll(async () => {
        const rows = await sql!`select doc::text as doc from crongw.documents
          where name = 'cron/jobs'`;
        return rows[0] ? (JSON.parse(rows[0].doc) as Loose) : undefined;
      })
      .toMatchObject({ version: 1, jobs: [{ id: job!.id, name: "Morning brief" }] });
    expect(existsSync(join(first.stateDir, "cron", "jobs.json"))).toBe(false);
    client.close();

    const second = await gateway();
    const other = await second.connect();
    await expect
      .poll(async () => (await call(other, "cron.list", {})).jobs.map((j: Loose) => j.id))
      .toEqual([job!.id]);
    const status = await call(other, "cron.status", {});
    expect(String(status.storePath)).toContain("cron/jobs");
    other.close();
  });
});
