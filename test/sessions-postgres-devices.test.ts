// The device pairing store in a real PostgreSQL (cluster.store): two store instances (a gateway and
// another process) on the same database see each other's requests, approvals and tokens; nothing is
// written under the state dir.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  openDeviceStore,
  pgDeviceDocuments,
  pgDeviceDocumentsFor,
} from "../src/gateway/devices/index.js";
import type { PairingMetadata } from "../src/gateway/devices/types.js";
import { openPgBackend } from "../src/sessions/postgres/backend.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { createTestDatabase } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const db = await createTestDatabase("sessions_pg_devices");
const backend = db
  ? await openPgBackend({ config: { kind: "postgres", url: db.url, schema: "dev" } })
  : undefined;
afterAll(async () => {
  await backend?.close();
});

const metadata: PairingMetadata = {
  platform: "linux",
  deviceFamily: "",
  clientId: "cli",
  clientMode: "cli",
  role: "operator",
  scopes: ["operator.read"],
};

describe.skipIf(!db)("device pairing store in PostgreSQL", () => {
  it("shares requests, approvals and tokens between two instances; no files", async () => {
    const stateDir = makeTempDir("pincer-pg-devices-");
    const clock = { now: () => 1_000_000 };
    const documents = pgDeviceDocuments(() => backend);
    const gateway = openDeviceStore({ stateDir, clock, documents });
    const cli = openDeviceStore({ stateDir, clock, documents });
    const request = await gateway.requestPairing({
      deviceId: "dev-1",
      publicKey: "pk",
      metadata,
      remoteAddress: "10.0.0.2",
      reason: "not-paired",
    });
    expect((await cli.listPending()).map((r) => r.requestId)).toEqual([request.requestId]);
    const paired = await cli.approve(request.requestId);
    expect(paired?.deviceId).toBe("dev-1");
    expect(await gateway.listPending()).toEqual([]);
    expect((await gateway.getPaired("dev-1"))?.scopes).toEqual(["operator.read"]);
    const issued = await gateway.issueToken("dev-1");
    expect(issued).toBeDefined();
    expect(await cli.verifyToken("dev-1", issued!.token)).toBe(true);
    expect(await cli.verifyToken("dev-1", "wrong")).toBe(false);
    await cli.revoke("dev-1");
    expect(await gateway.verifyToken("dev-1", issued!.token)).toBe(false);
    expect(existsSync(join(stateDir, "devices"))).toBe(false);
    const [row] = await backend!.sql`select doc::text as doc from dev.documents
      where name = 'devices/paired'`;
    expect(row?.doc).not.toContain(issued!.token); // tokens are stored hashed
  });

  it("pincer devices lists and approves requests kept in PostgreSQL", async () => {
    const cluster = { store: { kind: "postgres" as const, url: db!.url, schema: "devcli" } };
    const gateway = openDeviceStore({
      stateDir: makeTempDir("pincer-pg-devices-"),
      clock: { now: () => Date.now() },
      documents: pgDeviceDocumentsFor(cluster.store),
    });
    const request = await gateway.requestPairing({
      deviceId: "dev-cli",
      publicKey: "pk",
      metadata,
      remoteAddress: "10.0.0.3",
      reason: "not-paired",
    });
    const sb = createCliSandbox();
    sb.writeConfig(JSON.stringify({ cluster }));
    const listed = await sb.run(["devices", "list", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(request.requestId);
    const approved = await sb.run(["devices", "approve", request.requestId]);
    expect(approved.code, approved.stderr).toBe(0);
    expect((await gateway.getPaired("dev-cli"))?.deviceId).toBe("dev-cli");
    expect(existsSync(join(sb.stateDir, "devices"))).toBe(false);
  });
});
