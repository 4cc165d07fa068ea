// Device tokens carry the role and scopes that were approved, through the real gateway: a device paired
// for operator.read (or as role node) that reconnects with only its device token and asks for more gets
// NOT_PAIRED / PAIRING_REQUIRED (scope-upgrade or role-upgrade) and a pending request, even on loopback;
// once an operator approves it, the same token gets the new access. The shared token stays the master key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDeviceIdentity,
  type DeviceIdentity,
  openDeviceStore,
  signDeviceProof,
} from "../src/gateway/devices/index.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  openClient,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
beforeAll(async () => {
  box = await createGatewaySandbox();
});
afterAll(async () => box?.close());

const client = { id: "test", version: "1.0.0", platform: "linux", mode: "test" };

/** One signed connect; `scopes: undefined` leaves them out (the gateway's default applies). */
async function connectAs(params: {
  identity: DeviceIdentity;
  role: "operator" | "node";
  scopes: string[] | undefined;
  auth: Record<string, string>;
}) {
  const ws = await openClient(box.gw.url);
  const { nonce, ts } = ws.frames[0]!.payload as { nonce: string; ts: number };
  const device = signDeviceProof({
    identity: params.identity,
    client,
    role: params.role,
    scopes: params.scopes ?? [],
    token: params.auth.token ?? params.auth.deviceToken ?? "",
    nonce,
    signedAt: ts,
  });
  const res = await ws.request("connect", {
    minProtocol: 3,
    maxProtocol: 4,
    client,
    role: params.role,
    ...(params.scopes ? { scopes: params.scopes } : {}),
    auth: params.auth,
    device,
  });
  return { ws, res };
}

/** Pairs a fresh device over loopback with the shared token; returns it with its device token. */
async function pairDevice(role: "operator" | "node", scopes: string[]) {
  const identity = createDeviceIdentity();
  const { ws, res } = await connectAs({ identity, role, scopes, auth: { token: TEST_TOKEN } });
  expect(res.ok).toBe(true);
  ws.close();
  const deviceToken = String(payloadOf(res).auth.deviceToken);
  return { identity, deviceToken };
}

const store = () => openDeviceStore({ stateDir: box.stateDir, clock: { now: () => Date.now() } });

describe("device tokens are bound to the approved role and scopes", () => {
  it("refuses a read-scoped token that claims operator.admin and queues a scope upgrade", async () => {
    const { identity, deviceToken } = await pairDevice("operator", ["operator.read"]);
    const admin = ["operator.admin"];
    const claim = await connectAs({
      identity,
      role: "operator",
      scopes: admin,
      auth: { deviceToken },
    });
    expect(claim.res.ok).toBe(false);
    expect(claim.res.error).toMatchObject({
      code: "NOT_PAIRED",
      message: "pairing required: device is asking for more scopes than currently approved",
      details: {
        code: "PAIRING_REQUIRED",
        reason: "scope-upgrade",
        requestId: expect.any(String),
        deviceId: identity.deviceId,
        requestedRole: "operator",
        requestedScopes: admin,
        approvedRoles: ["operator"],
        approvedScopes: ["operator.read"],
      },
    });
    expect((await claim.ws.closed).code).toBe(1008);
    const requestId = String((claim.res.error as Loose).details.requestId);
    const pending = (await store().listPending()).find((r) => r.requestId === requestId);
    expect(pending).toMatchObject({
      deviceId: identity.deviceId,
      reason: "scope-upgrade",
      metadata: { role: "operator", scopes: admin },
      approved: { roles: ["operator"], scopes: ["operator.read"] },
    });

    // Within its approval the token still works, and config.* stays out of reach.
    const read = await connectAs({
      identity,
      role: "operator",
      scopes: ["operator.read"],
      auth: { deviceToken },
    });
    expect(payloadOf(read.res).auth).toMatchObject({ scopes: ["operator.read"] });
    const apply = await read.ws.request("config.apply", { raw: "{}" });
    expect(apply.error).toMatchObject({ code: "FORBIDDEN", details: { code: "MISSING_SCOPE" } });
    read.ws.close();

    // Approved: the same token now gets operator.admin.
    expect(await store().approve(requestId)).toMatchObject({
      scopes: ["operator.read", "operator.admin"],
    });
    const again = await connectAs({
      identity,
      role: "operator",
      scopes: admin,
      auth: { deviceToken },
    });
    expect(again.res.ok).toBe(true);
    expect((await again.ws.request("config.get")).ok).toBe(true);
    again.ws.close();
  });

  it("treats omitted scopes as the default read + write, not as nothing", async () => {
    const { identity, deviceToken } = await pairDevice("operator", ["operator.read"]);
    const { res } = await connectAs({
      identity,
      role: "operator",
      scopes: undefined,
      auth: { deviceToken },
    });
    expect(res.error).toMatchObject({
      details: {
        reason: "scope-upgrade",
        requestedScopes: ["operator.read", "operator.write"],
      },
    });
  });

  it("refuses a node device's token as an operator (role upgrade), with or without scopes", async () => {
    const { identity, deviceToken } = await pairDevice("node", []);
    for (const scopes of [["operator.admin"], undefined]) {
      const { res } = await connectAs({
        identity,
        role: "operator",
        scopes,
        auth: { deviceToken },
      });
      expect(res.error).toMatchObject({
        code: "NOT_PAIRED",
        details: {
          code: "PAIRING_REQUIRED",
          reason: "role-upgrade",
          approvedRoles: ["node"],
          requestedRole: "operator",
        },
      });
    }
    const asNode = await connectAs({ identity, role: "node", scopes: [], auth: { deviceToken } });
    expect(payloadOf(asNode.res).auth).toMatchObject({ role: "node", scopes: [] });
    asNode.ws.close();
    // One request per device, refreshed by retries.
    const pending = (await store().listPending()).filter((r) => r.deviceId === identity.deviceId);
    expect(pending).toHaveLength(1);
  });

  it("binds tokens issued later too: the shared token is the master key, its new token is not", async () => {
    const { identity } = await pairDevice("operator", ["operator.read"]);
    const master = await connectAs({
      identity,
      role: "operator",
      scopes: ["operator.admin"],
      auth: { token: TEST_TOKEN },
    });
    expect(payloadOf(master.res).auth).toMatchObject({ scopes: ["operator.admin"] });
    expect((await master.ws.request("config.get")).ok).toBe(true);
    const rotated = String(payloadOf(master.res).auth.deviceToken);
    master.ws.close();
    const { res } = await connectAs({
      identity,
      role: "operator",
      scopes: ["operator.admin"],
      auth: { deviceToken: rotated },
    });
    expect(res.error).toMatchObject({ details: { reason: "scope-upgrade" } });
    expect((await store().getPaired(identity.deviceId))?.scopes).toEqual(["operator.read"]);
  });

  it("lets write cover read, and nothing beyond the approved scopes", async () => {
    const { identity, deviceToken } = await pairDevice("operator", ["operator.write"]);
    const narrower = await connectAs({
      identity,
      role: "operator",
      scopes: ["operator.read"],
      auth: { deviceToken },
    });
    expect(narrower.res.ok).toBe(true);
    narrower.ws.close();
    const wider = await connectAs({
      identity,
      role: "operator",
      scopes: ["operator.write", "operator.pairing"],
      auth: { deviceToken },
    });
    expect(wider.res.error).toMatchObject({ details: { reason: "scope-upgrade" } });
  });
});
