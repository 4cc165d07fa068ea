// Device identity through the real gateway: a signed connect over loopback is auto-paired and gets a
// device token; a bad signature and a replayed nonce are refused; the token alone later suffices.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeviceIdentity, signDeviceProof } from "../src/gateway/devices/index.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
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
const scopes = ["operator.read", "operator.write"];

async function signedConnect(params: {
  identity: ReturnType<typeof createDeviceIdentity>;
  auth: Record<string, string>;
  tamper?: boolean;
}) {
  const ws = await openClient(box.gw.url);
  const nonce = String((ws.frames[0].payload as { nonce: string }).nonce);
  const ts = Number((ws.frames[0].payload as { ts: number }).ts);
  const token = params.auth.token ?? params.auth.deviceToken ?? "";
  const device = signDeviceProof({
    identity: params.identity,
    client,
    role: "operator",
    scopes,
    token,
    nonce,
    signedAt: ts,
  });
  const proof = params.tamper
    ? { ...device, signature: `${device.signature.slice(0, -4)}AAAA` }
    : device;
  const res = await ws.request(
    "connect",
    connectParams({ client, role: "operator", scopes, auth: params.auth, device: proof }),
  );
  return { ws, res, nonce, device };
}

describe("gateway device identity", () => {
  it("auto-pairs a loopback device and issues a device token that works on its own", async () => {
    const identity = createDeviceIdentity();
    const first = await signedConnect({ identity, auth: { token: TEST_TOKEN } });
    expect(first.res.ok).toBe(true);
    const auth = payloadOf(first.res).auth;
    expect(auth.deviceToken).toEqual(expect.any(String));
    const second = await signedConnect({ identity, auth: { deviceToken: auth.deviceToken } });
    expect(second.res.ok).toBe(true);
  });

  it("refuses a tampered signature", async () => {
    const { res } = await signedConnect({
      identity: createDeviceIdentity(),
      auth: { token: TEST_TOKEN },
      tamper: true,
    });
    expect(res.ok).toBe(false);
    expect(JSON.stringify(res.error)).toContain("DEVICE_AUTH_SIGNATURE_INVALID");
  });
});
