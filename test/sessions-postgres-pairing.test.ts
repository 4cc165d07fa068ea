// The DM pairing store in a real PostgreSQL (cluster.store): the file store's semantics (codes, the
// per-account cap, TTL, approve/reject, allowFrom) on documents, write-through rows with the files'
// JSON shapes, a CLI-side approval (another store on the same database, and `pincer pairing approve`)
// seen by a gateway-side store after a refresh, and nothing under the state dir's credentials/.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPgPairingStore } from "../src/channels/pairing/pg-pairing.js";
import { silentLogger } from "../src/lib/logger.js";
import { openPgBackend } from "../src/sessions/postgres/backend.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { createTestDatabase } from "./helpers/postgres.js";

const db = await createTestDatabase("sessions_pg_pairing");
const backends: Awaited<ReturnType<typeof openPgBackend>>[] = [];
const open = async (schema: string) => {
  const backend = await openPgBackend({ config: { kind: "postgres", url: db!.url, schema } });
  backends.push(backend);
  return backend;
};
afterAll(async () => {
  for (const backend of backends) await backend.close();
});

describe.skipIf(!db)("DM pairing store in PostgreSQL", () => {
  it("requests, caps, lists, approves, rejects and expires like the files", async () => {
    const backend = await open("pair");
    let now = Date.parse("2026-01-01T00:00:00Z");
    let n = 0;
    const store = await openPgPairingStore({
      backend,
      logger: silentLogger,
      now: () => now,
      random: (k) => n++ % k,
    });
    const first = store.request({ channel: "telegram", accountId: "default", senderId: "1" });
    expect(first.status).toBe("created");
    const again = store.request({ channel: "telegram", accountId: "default", senderId: "1" });
    expect(again).toEqual({ status: "pending", code: first.status === "created" && first.code });
    for (const id of ["2", "3"]) {
      expect(
        store.request({ channel: "telegram", accountId: "default", senderId: id }).status,
      ).toBe("created");
    }
    expect(store.request({ channel: "telegram", accountId: "default", senderId: "4" })).toEqual({
      status: "full",
    });
    expect(store.request({ channel: "telegram", accountId: "work", senderId: "5" }).status).toBe(
      "created",
    );
    const listed = store.list("telegram");
    expect(listed.map((r) => r.id)).toEqual(["1", "2", "3", "5"]);
    expect(store.list().map((r) => r.channel)).toEqual(Array(4).fill("telegram"));
    const code1 = listed[0]!.code;
    expect(store.approve("telegram", code1.toLowerCase())?.id).toBe("1");
    expect(store.allowFrom("telegram", "default")).toEqual(["1"]);
    expect(store.approve("telegram", code1)).toBeUndefined();
    expect(store.reject("telegram", listed[1]!.code)?.id).toBe("2");
    expect(store.approve("telegram", listed[3]!.code)?.meta.accountId).toBe("work");
    expect(store.allowFrom("telegram", "work")).toEqual(["5"]);
    await store.flush();

    // Written through with the files' JSON shapes.
    const rows = await backend.sql<{ name: string; doc: string }[]>`
      select name, doc::text as doc from pair.documents order by name`;
    expect(rows.map((r) => r.name)).toEqual([
      "allowFrom/telegram/default",
      "allowFrom/telegram/work",
      "pairing/telegram",
    ]);
    expect(JSON.parse(rows[0]!.doc)).toEqual({ version: 1, allowFrom: ["1"] });
    const pairing = JSON.parse(rows[2]!.doc) as {
      version: number;
      requests: { id: string; code: string }[];
    };
    expect(pairing.version).toBe(1);
    expect(pairing.requests.map((r) => r.id)).toEqual(["3"]);

    // A reopened store loads the same state; after the TTL the code is gone.
    const reopened = await openPgPairingStore({ backend, logger: silentLogger, now: () => now });
    expect(reopened.list("telegram").map((r) => r.id)).toEqual(["3"]);
    expect(reopened.allowFrom("telegram", "default")).toEqual(["1"]);
    now += 60 * 60 * 1000 + 1;
    expect(reopened.list("telegram")).toEqual([]);
    expect(reopened.approve("telegram", pairing.requests[0]!.code)).toBeUndefined();
    await store.close();
    await reopened.close();
  });

  it("a CLI-side approval reaches the gateway-side store on its next refresh", async () => {
    const backend = await open("pair2");
    const gateway = await openPgPairingStore({ backend, logger: silentLogger });
    const created = gateway.request({ channel: "telegram", accountId: "default", senderId: "42" });
    if (created.status !== "created") throw new Error("no code");
    await gateway.flush();
    const cli = await openPgPairingStore({ backend: await open("pair2"), logger: silentLogger });
    expect(cli.approve("telegram", created.code)?.id).toBe("42");
    await cli.flush();
    await cli.close();
    expect(gateway.allowFrom("telegram", "default")).toEqual([]);
    await gateway.refresh();
    expect(gateway.allowFrom("telegram", "default")).toEqual(["42"]);
    expect(gateway.list("telegram")).toEqual([]);
    // A request made after the refresh keeps the approval (the gateway's copy is current).
    gateway.request({ channel: "telegram", accountId: "default", senderId: "43" });
    await gateway.flush();
    await gateway.refresh();
    expect(gateway.list("telegram").map((r) => r.id)).toEqual(["43"]);
    await gateway.close();
  });

  it("pincer pairing list/approve work on PostgreSQL and write no credentials files", async () => {
    const schema = "paircli";
    const backend = await open(schema);
    const gateway = await openPgPairingStore({ backend, logger: silentLogger, refreshMs: 50 });
    const created = gateway.request({ channel: "telegram", accountId: "default", senderId: "7" });
    if (created.status !== "created") throw new Error("no code");
    await gateway.flush();
    const sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({ cluster: { store: { kind: "postgres", url: db!.url, schema } } }),
    );
    const listed = await sb.run(["pairing", "list", "telegram", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(created.code);
    const approved = await sb.run(["pairing", "approve", "telegram", created.code]);
    expect(approved.code, approved.stderr).toBe(0);
    // The gateway's periodic refresh picks it up (polled: no wall-clock assertion).
    await expect
      .poll(() => gateway.allowFrom("telegram", "default"), { timeout: 5_000 })
      .toEqual(["7"]);
    const unknown = await sb.run(["pairing", "approve", "telegram", "ZZZZZZZZ"]);
    expect(unknown.code).toBe(1);
    expect(existsSync(join(sb.stateDir, "credentials"))).toBe(false);
    await gateway.close();
  });
});
