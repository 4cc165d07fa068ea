// The device.* methods through the real gateway: a remote device waits for approval
// (device.pair.requested to pairing-scoped clients only), an operator approves it over the gateway and
// its next connect gets a device token; nobody approves scopes beyond their own; reject, remove
// (closes the device's connections, its token stops working), token rotate and revoke.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeviceIdentity } from "../src/gateway/devices/index.js";
import { connectDevice } from "./helpers/device-client.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  TEST_TOKEN,
} from "./helpers/gateway-sandbox.js";

let box: GatewaySandbox;
beforeAll(async () => {
  box = await createGatewaySandbox();
});
afterAll(async () => box?.close());

const RW = ["operator.read", "operator.write"];
const pendingFile = () => readFileSync(join(box.stateDir, "devices", "pending.json"), "utf8");

/** A remote device's first connect: refused NOT_PAIRED with the id of its pairing request. */
async function requestPairing(scopes = RW) {
  const identity = createDeviceIdentity();
  const first = await connectDevice({
    url: box.gw.url,
    identity,
    auth: { token: TEST_TOKEN },
    scopes,
    remote: true,
  });
  expect(first.res.ok).toBe(false);
  const error = first.res.error as { code: string; details: { requestId: string } };
  expect(error.code).toBe("NOT_PAIRED");
  return { identity, requestId: error.details.requestId };
}

describe("device pairing over the gateway", () => {
  it("approves a waiting remote device: it connects next time and gets its device token", async () => {
    const admin = await box.connect();
    const reader = await box.connect({ scopes: RW });
    const { identity, requestId } = await requestPairing();
    const requested = await admin.waitFor(
      (f) => f.event === "device.pair.requested" && payloadOf(f).requestId === requestId,
    );
    expect(payloadOf(requested)).toMatchObject({
      deviceId: identity.deviceId,
      displayName: "Second laptop",
      remoteIp: "127.0.0.1",
      scopes: RW,
      reason: "not-paired",
    });
    // The reader lacks operator.pairing: no event, and device.pair.list is refused.
    const refused = await reader.request("device.pair.list", {});
    expect(refused.error).toMatchObject({
      code: "FORBIDDEN",
      message: "missing scope: operator.pairing",
    });
    expect(reader.events("device.pair.requested")).toEqual([]);

    const listed = payloadOf(await admin.request("device.pair.list", {}));
    expect(listed.pending.map((r: { requestId: string }) => r.requestId)).toContain(requestId);
    const approved = await admin.request("device.pair.approve", { requestId });
    expect(approved.ok).toBe(true);
    expect(payloadOf(approved).device).toMatchObject({ deviceId: identity.deviceId, scopes: RW });
    const resolved = await admin.waitFor((f) => f.event === "device.pair.resolved");
    expect(payloadOf(resolved)).toMatchObject({ requestId, decision: "approved" });

    const next = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
      remote: true,
    });
    expect(next.res.ok).toBe(true);
    const deviceToken = String(payloadOf(next.res).auth.deviceToken);
    expect(deviceToken.length).toBeGreaterThan(20);
    const after = payloadOf(await admin.request("device.pair.list", {}));
    const row = after.paired.find((d: { deviceId: string }) => d.deviceId === identity.deviceId);
    expect(row).toMatchObject({ connected: true, approvedBy: "operator" });
    expect(JSON.stringify(row)).not.toContain(deviceToken);

    // Remove: the device's open connection closes and its token no longer works.
    const removed = await admin.request("device.pair.remove", { deviceId: identity.deviceId });
    expect(removed.ok).toBe(true);
    expect((await next.ws.closed).code).toBe(1008);
    const again = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { deviceToken },
      scopes: RW,
      remote: true,
    });
    expect(again.res.ok).toBe(false);
    admin.close();
    reader.close();
  });

  it("refuses to approve scopes beyond the caller's own, and leaves the request pending", async () => {
    const { requestId } = await requestPairing(["operator.admin"]);
    const pairer = await box.connect({ scopes: ["operator.pairing", "operator.read"] });
    const before = pendingFile();
    const res = await pairer.request("device.pair.approve", { requestId });
    expect(res.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: "missing scope: operator.admin",
    });
    expect(pendingFile()).toBe(before);
    // Within its scopes the same caller may approve.
    const modest = await requestPairing(["operator.read"]);
    expect((await pairer.request("device.pair.approve", { requestId: modest.requestId })).ok).toBe(
      true,
    );
    pairer.close();
  });

  it("shows a non-admin device caller only its own device, and refuses managing another", async () => {
    const other = await requestPairing();
    // Another device, paired (loopback) and gone.
    const stranger = createDeviceIdentity();
    const gone = await connectDevice({
      url: box.gw.url,
      identity: stranger,
      auth: { token: TEST_TOKEN },
      scopes: RW,
    });
    expect(gone.res.ok).toBe(true);
    gone.ws.close();
    const identity = createDeviceIdentity();
    const mine = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: ["operator.pairing", "operator.read"],
    });
    expect(mine.res.ok).toBe(true);
    const listed = payloadOf(await mine.ws.request("device.pair.list", {}));
    expect(listed.pending).toEqual([]);
    expect(listed.paired.map((d: { deviceId: string }) => d.deviceId)).toEqual([identity.deviceId]);
    const approve = await mine.ws.request("device.pair.approve", { requestId: other.requestId });
    expect(approve.error).toMatchObject({ message: "device pairing approval denied" });
    const remove = await mine.ws.request("device.pair.remove", { deviceId: stranger.deviceId });
    expect(remove.error).toMatchObject({ message: "device pairing removal denied" });
    mine.ws.close();
  });

  it("rejects a request, and answers unknown ids as such", async () => {
    const admin = await box.connect();
    const { requestId, identity } = await requestPairing();
    const rejected = await admin.request("device.pair.reject", { requestId });
    expect(payloadOf(rejected)).toEqual({ requestId, deviceId: identity.deviceId });
    const resolved = await admin.waitFor(
      (f) => f.event === "device.pair.resolved" && payloadOf(f).requestId === requestId,
    );
    expect(payloadOf(resolved).decision).toBe("rejected");
    const twice = await admin.request("device.pair.approve", { requestId });
    expect(twice.error).toMatchObject({ message: "unknown requestId" });
    admin.close();
  });

  it("rotates and revokes a device's tokens, closing its connections", async () => {
    const admin = await box.connect();
    const identity = createDeviceIdentity();
    // Loopback: paired at once.
    const first = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
    });
    expect(first.res.ok).toBe(true);
    const oldToken = String(payloadOf(first.res).auth.deviceToken);
    const rotated = await admin.request("device.token.rotate", {
      deviceId: identity.deviceId,
      role: "operator",
    });
    expect(payloadOf(rotated)).toMatchObject({
      tokenDelivery: "withheld-cross-device",
      scopes: RW,
    });
    expect(payloadOf(rotated).token).toBeUndefined();
    expect((await first.ws.closed).code).toBe(1008);
    const stale = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { deviceToken: oldToken },
      scopes: RW,
    });
    expect(stale.res.ok).toBe(false);

    // The device rotating its own token gets it in band.
    const self = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: ["operator.pairing"],
    });
    expect(self.res.ok).toBe(true);
    const own = await self.ws.request("device.token.rotate", {
      deviceId: identity.deviceId,
      role: "operator",
    });
    expect(payloadOf(own)).toMatchObject({ tokenDelivery: "in-band", token: expect.any(String) });
    await self.ws.closed;

    const live = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { deviceToken: String(payloadOf(own).token) },
      scopes: RW,
    });
    expect(live.res.ok).toBe(true);
    const revoked = await admin.request("device.token.revoke", {
      deviceId: identity.deviceId,
      role: "operator",
    });
    expect(payloadOf(revoked)).toMatchObject({ deviceId: identity.deviceId, role: "operator" });
    expect((await live.ws.closed).code).toBe(1008);
    // Still paired: the shared secret gets it a new token.
    const back = await connectDevice({
      url: box.gw.url,
      identity,
      auth: { token: TEST_TOKEN },
      scopes: RW,
    });
    expect(payloadOf(back.res).auth.deviceToken).toEqual(expect.any(String));
    back.ws.close();
    admin.close();
  });
});
