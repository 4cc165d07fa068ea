// A gateway with `cluster.store` on a real PostgreSQL: a chat turn lands as a session row and one
// transcript row per entry; sessions.list and chat.history come from PostgreSQL, also in a second
// gateway with an empty state dir (nothing of the session is on its disk).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  sendChat,
} from "./helpers/gateway-sandbox.js";
import { createTestDatabase } from "./helpers/postgres.js";

const db = await createTestDatabase("sessions_pg_gateway");
const sql = db ? postgres(db.url, { max: 2, onnotice: () => {} }) : undefined;
const boxes: GatewaySandbox[] = [];
afterAll(async () => {
  for (const box of boxes) await box.close();
  await sql?.end({ timeout: 5 });
});

async function gateway(): Promise<GatewaySandbox> {
  const box = await createGatewaySandbox({
    config: () => ({ cluster: { store: { kind: "postgres", url: db!.url, schema: "gw" } } }),
  });
  boxes.push(box);
  return box;
}

describe.skipIf(!db)("gateway with sessions in PostgreSQL", () => {
  it("stores a chat turn in PostgreSQL and lists and reads it back from there", async () => {
    const first = await gateway();
    first.fake.text("Hi from the model");
    const client = await first.connect();
    const { text } = await sendChat(client, "hello postgres");
    expect(text).toBe("Hi from the model");

    const [row] = await sql!`select session_key, session_id, entry::text as entry
      from gw.sessions where agent_id = 'main'`;
    expect(row?.session_key).toBe("agent:main:main");
    const entries = await sql!`select entry_id, parent_id, entry->'message'->>'role' as role
      from gw.transcript_entries where session_id = ${row!.session_id} order by seq`;
    const roles = entries.map((e) => e.role).filter(Boolean);
    expect(roles).toEqual(["user", "assistant"]);
    for (let i = 1; i < entries.length; i++)
      expect(entries[i]!.parent_id).toBe(entries[i - 1]!.entry_id);
    // Nothing of the session on the gateway's disk.
    const sessionsDir = join(first.stateDir, "agents", "main", "sessions");
    const files = existsSync(sessionsDir) ? readdirSync(sessionsDir) : [];
    expect(files.filter((f) => f.endsWith(".jsonl") || f === "sessions.json")).toEqual([]);

    const listed = await client.request("sessions.list", {});
    expect(payloadOf(listed).sessions.map((s: { key: string }) => s.key)).toContain(
      "agent:main:main",
    );
    client.close();

    const second = await gateway();
    const other = await second.connect();
    const list2 = await other.request("sessions.list", {});
    expect(list2.ok).toBe(true);
    expect(payloadOf(list2).sessions.map((s: { key: string }) => s.key)).toContain(
      "agent:main:main",
    );
    const history = await other.request("chat.history", { sessionKey: "main" });
    expect(history.ok, JSON.stringify(history.error)).toBe(true);
    const texts = JSON.stringify(payloadOf(history).messages);
    expect(texts).toContain("hello postgres");
    expect(texts).toContain("Hi from the model");
    other.close();
  }, 60_000);
});
