// The pairing store on disk: pending expiry and cap, reject, tokens hashed and capped, unknown ids.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { MAX_ACTIVE_TOKENS_PER_DEVICE, openDeviceStore } from "./store.js";
import type { PairingMetadata } from "./types.js";

const metadata: PairingMetadata = {
  platform: "linux",
  deviceFamily: "",
  clientId: "cli",
  clientMode: "cli",
  role: "operator",
  scopes: ["operator.read"],
};

function setup(options: { maxPending?: number } = {}) {
  const stateDir = makeTempDir("pincer-device-store-");
  const clock = { t: 1_000_000, now: () => clock.t };
  const store = openDeviceStore({ stateDir, clock, ...options });
  const request = (deviceId: string) =>
    store.requestPairing({
      deviceId,
      publicKey: "pk",
      metadata,
      remoteAddress: "10.0.0.2",
      reason: "not-paired",
    });
  return { stateDir, clock, store, request };
}

describe("openDeviceStore", () => {
  it("expires pending requests after an hour and keeps at most maxPending", async () => {
    const { store, request, clock } = setup({ maxPending: 2 });
    const a = await request("a");
    clock.t += 1;
    await request("b");
    clock.t += 1;
    await request("c");
    expect((await store.listPending()).map((r) => r.deviceId)).toEqual(["b", "c"]);
    expect(await store.approve(a.requestId)).toBeUndefined();
    clock.t += 60 * 60_000 + 1;
    expect(await store.listPending()).toEqual([]);
  });

  it("rejects a request and reports unknown ids", async () => {
    const { store, request } = setup();
    const r = await request("dev");
    expect(await store.reject("nope")).toBeUndefined();
    expect(await store.reject(r.requestId)).toMatchObject({ deviceId: "dev" });
    expect(await store.listPending()).toEqual([]);
    expect(await store.revoke("dev")).toBeUndefined();
    expect(await store.issueToken("dev")).toBeUndefined();
    expect(await store.verifyToken("dev", "x")).toBe(false);
    expect(r.requestId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("stores only token hashes, caps active tokens and revokes them all", async () => {
    const { store, request, stateDir } = setup();
    await store.approve((await request("dev")).requestId);
    const tokens: string[] = [];
    for (let i = 0; i < MAX_ACTIVE_TOKENS_PER_DEVICE + 2; i++) {
      tokens.push((await store.issueToken("dev"))!.token);
    }
    const path = join(stateDir, "devices", "paired.json");
    const text = readFileSync(path, "utf8");
    for (const token of tokens) expect(text).not.toContain(token);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await store.verifyToken("dev", tokens[0]!)).toBe(false);
    expect(await store.verifyToken("dev", tokens.at(-1)!)).toBe(true);
    expect((await store.getPaired("dev"))!.tokens).toHaveLength(MAX_ACTIVE_TOKENS_PER_DEVICE);
    await store.revoke("dev");
    expect(await store.verifyToken("dev", tokens.at(-1)!)).toBe(false);
    expect(await store.issueToken("dev")).toBeUndefined();
  });

  it("approves only when the guard accepts the request as it is now", async () => {
    const { store, request } = setup();
    const r = await request("dev");
    expect(await store.approve(r.requestId, () => false)).toBeUndefined();
    expect(await store.listPending()).toHaveLength(1);
    expect(await store.approve(r.requestId, (req) => req.deviceId === "dev")).toMatchObject({
      deviceId: "dev",
    });
  });

  it("rotates a device's tokens (old ones stop working) and revokes them keeping the pairing", async () => {
    const { store, request } = setup();
    await store.approve((await request("dev")).requestId);
    const first = (await store.issueToken("dev"))!;
    const second = (await store.issueToken("dev"))!;
    const rotated = (await store.rotateToken("dev"))!;
    expect(await store.verifyToken("dev", first.token)).toBe(false);
    expect(await store.verifyToken("dev", second.token)).toBe(false);
    expect(await store.verifyToken("dev", rotated.token)).toBe(true);
    expect(await store.revokeTokens("dev")).toEqual(expect.any(Number));
    expect(await store.verifyToken("dev", rotated.token)).toBe(false);
    expect((await store.getPaired("dev"))?.revokedAt).toBeUndefined();
    const fresh = (await store.issueToken("dev"))!;
    expect(await store.verifyToken("dev", fresh.token)).toBe(true);
    expect(await store.rotateToken("nope")).toBeUndefined();
    expect(await store.revokeTokens("nope")).toBeUndefined();
  });
});
