// Browsers and proxies at the real gateway's WebSocket upgrade: a foreign Origin or a rebinding Host
// is refused with 403 in token mode and in mode none; the gateway's own origin and the configured
// ones get in; X-Forwarded-For counts only from gateway.trustedProxies, and a forwarded client is never
// local (no mode-none loopback pass, no loopback auto-pairing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeviceIdentity, signDeviceProof } from "../src/gateway/devices/index.js";
import {
  connectParams,
  createGatewaySandbox,
  type GatewaySandbox,
  payloadOf,
  TEST_TOKEN,
  type TestClient,
} from "./helpers/gateway-sandbox.js";
import { openClientWith, openWith } from "./helpers/raw-upgrade.js";

const noAuthConnect = () => connectParams({ auth: undefined });

/** A signed connect of a fresh device over `client` (shared token), as a paired CLI would send. */
async function deviceConnect(client: TestClient) {
  const challenge = client.frames[0]!.payload as { nonce: string; ts: number };
  const params = connectParams();
  const device = signDeviceProof({
    identity: createDeviceIdentity(),
    client: params.client as { id: string; mode: string; platform: string },
    role: "operator",
    scopes: params.scopes as string[],
    token: TEST_TOKEN,
    nonce: challenge.nonce,
    signedAt: challenge.ts,
  });
  return client.request("connect", { ...params, device });
}

describe("upgrade guard, token mode, no trusted proxies", () => {
  let box: GatewaySandbox;
  let own: string;
  beforeAll(async () => {
    box = await createGatewaySandbox();
    own = `http://127.0.0.1:${box.gw.port}`;
  });
  afterAll(async () => box?.close());

  it("refuses a foreign Origin with 403 and a reason, before any auth", async () => {
    for (const origin of ["http://evil.example", `http://localhost:${box.gw.port + 1}`, "null"]) {
      const outcome = await openWith(box.gw.url, { headers: { Origin: origin } });
      expect(outcome, origin).toMatchObject({ ok: false, status: 403 });
      if (!outcome.ok) expect(outcome.body).toMatch(/^origin not allowed/);
    }
  });

  it("refuses a rebinding Host (with or without Origin)", async () => {
    const host = `evil.example:${box.gw.port}`;
    const variants: Array<Record<string, string>> = [
      { Host: host },
      { Host: host, Origin: `http://${host}` },
    ];
    for (const headers of variants) {
      const outcome = await openWith(box.gw.url, { headers });
      expect(outcome).toMatchObject({ ok: false, status: 403 });
      if (!outcome.ok) expect(outcome.body).toMatch(/^host not allowed: evil\.example/);
    }
  });

  it("lets in the gateway's own origin (the WebChat page) and clients without Origin", async () => {
    const page = await openClientWith(box.gw.url, { headers: { Origin: own } });
    expect((await page.request("connect", connectParams())).ok).toBe(true);
    page.close();
    // The page opened as http://localhost:PORT (sent to 127.0.0.1 so no resolver is involved).
    const named = await openClientWith(box.gw.url, {
      headers: { Host: `localhost:${box.gw.port}`, Origin: `http://localhost:${box.gw.port}` },
    });
    expect((await named.request("connect", connectParams())).ok).toBe(true);
    named.close();
    const cli = await openClientWith(box.gw.url);
    expect((await cli.request("connect", connectParams())).ok).toBe(true);
    cli.close();
  });

  it("ignores X-Forwarded-For from an untrusted peer, which loses its loopback privileges", async () => {
    const headers = { "X-Forwarded-For": "203.0.113.9" };
    const client = await openClientWith(box.gw.url, { headers });
    expect((await client.request("connect", connectParams())).ok).toBe(true);
    const presence = payloadOf(await client.request("system-presence"));
    expect(JSON.stringify(presence)).not.toContain("203.0.113.9");
    client.close();
    // A device behind an unknown proxy is not auto-paired as a loopback one.
    const device = await openClientWith(box.gw.url, { headers });
    const res = await deviceConnect(device);
    expect(res.error).toMatchObject({
      code: "NOT_PAIRED",
      details: { code: "PAIRING_REQUIRED", reason: "not-paired" },
    });
  });
});

describe("upgrade guard, mode none, trusted proxy on loopback, an allowed origin", () => {
  let box: GatewaySandbox;
  beforeAll(async () => {
    box = await createGatewaySandbox({
      config: () => ({
        gateway: {
          auth: { mode: "none" },
          trustedProxies: ["127.0.0.0/8"],
          controlUi: { allowedOrigins: ["https://ui.example"] },
        },
      }),
    });
  });
  afterAll(async () => box?.close());

  it("still refuses a foreign Origin and a rebinding Host in mode none", async () => {
    expect(
      await openWith(box.gw.url, { headers: { Origin: "http://evil.example" } }),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await openWith(box.gw.url, { headers: { Host: "evil.example" } })).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it("lets a configured origin in", async () => {
    const client = await openClientWith(box.gw.url, { headers: { Origin: "https://ui.example" } });
    expect((await client.request("connect", noAuthConnect())).ok).toBe(true);
    client.close();
  });

  it("passes a direct loopback client in mode none, never a proxied one", async () => {
    const direct = await openClientWith(box.gw.url);
    expect((await direct.request("connect", noAuthConnect())).ok).toBe(true);
    const proxied = await openClientWith(box.gw.url, {
      headers: { "X-Forwarded-For": "203.0.113.10" },
    });
    const res = await proxied.request("connect", noAuthConnect());
    expect(res.error).toMatchObject({
      code: "NOT_PAIRED",
      details: { code: "DEVICE_IDENTITY_REQUIRED" },
    });
    expect((await proxied.closed).code).toBe(1008);
    // Even a loopback address forwarded by the proxy is a proxied client, not a local one.
    const spoofed = await openClientWith(box.gw.url, {
      headers: { "X-Forwarded-For": "127.0.0.1" },
    });
    expect((await spoofed.request("connect", noAuthConnect())).ok).toBe(false);
    direct.close();
  });
});

describe("upgrade guard, token mode, trusted proxy on loopback", () => {
  let box: GatewaySandbox;
  beforeAll(async () => {
    box = await createGatewaySandbox({
      config: () => ({
        gateway: { auth: { mode: "token", token: TEST_TOKEN }, trustedProxies: ["127.0.0.1"] },
      }),
    });
  });
  afterAll(async () => box?.close());

  it("uses the forwarded address and does not auto-pair the proxied device", async () => {
    const headers = { "X-Forwarded-For": "198.51.100.23" };
    const client = await openClientWith(box.gw.url, { headers });
    expect((await client.request("connect", connectParams())).ok).toBe(true);
    const presence = payloadOf(await client.request("system-presence"));
    expect(JSON.stringify(presence)).toContain("198.51.100.23");
    const device = await openClientWith(box.gw.url, { headers });
    expect((await deviceConnect(device)).error).toMatchObject({
      code: "NOT_PAIRED",
      details: { code: "PAIRING_REQUIRED", reason: "not-paired" },
    });
    const direct = await openClientWith(box.gw.url);
    expect((await deviceConnect(direct)).ok).toBe(true);
    client.close();
    direct.close();
  });
});
