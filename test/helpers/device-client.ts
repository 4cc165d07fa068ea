// A Node client with a device identity that connects from a "remote" address: its upgrade carries an
// x-forwarded-for header from a peer that is not a trusted proxy, so the gateway does not treat it as
// loopback and does not auto-pair it (the device waits for an operator's approval).
import WebSocket from "ws";
import { type DeviceIdentity, signDeviceProof } from "../../src/gateway/devices/index.js";
import { type Frame, TestClient } from "./gateway-sandbox.js";

/** The client block every device connect of these tests sends. */
export const DEVICE_CLIENT = {
  id: "test",
  version: "1.0.0",
  platform: "linux",
  mode: "test",
  displayName: "Second laptop",
};

/** One signed connect of `identity`; `remote` makes it non-loopback. Returns the socket and answer. */
export async function connectDevice(params: {
  url: string;
  identity: DeviceIdentity;
  auth: Record<string, string>;
  scopes: string[];
  remote?: boolean;
}): Promise<{ ws: TestClient; res: Frame }> {
  const headers = params.remote ? { "x-forwarded-for": "203.0.113.7" } : undefined;
  const ws = new TestClient(new WebSocket(params.url, headers ? { headers } : {}));
  const challenge = await ws.waitFor((f) => f.type === "event" && f.event === "connect.challenge");
  const { nonce, ts } = challenge.payload as { nonce: string; ts: number };
  const device = signDeviceProof({
    identity: params.identity,
    client: DEVICE_CLIENT,
    role: "operator",
    scopes: params.scopes,
    token: params.auth.token ?? params.auth.deviceToken ?? "",
    nonce,
    signedAt: ts,
  });
  const res = await ws.request("connect", {
    minProtocol: 3,
    maxProtocol: 4,
    client: DEVICE_CLIENT,
    role: "operator",
    scopes: params.scopes,
    auth: params.auth,
    device,
  });
  return { ws, res };
}
