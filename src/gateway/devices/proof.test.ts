// Device proofs: the captured OpenClaw protocol-3 vector, v2 acceptance and every refusal code.
import { describe, expect, it } from "vitest";
import {
  buildDeviceAuthPayload,
  createDeviceIdentity,
  type DeviceClientInfo,
  type DeviceProof,
  deriveDeviceId,
  signatureToken,
  signDeviceProof,
  verifyDeviceProof,
} from "./proof.js";

// A protocol-3 connect with a device identity, captured from the OpenClaw 2026.4.2 CLI: the proof
// must verify byte for byte as OpenClaw signed it.
const VECTOR = {
  nonce: "703144a3-5c0c-4713-b413-13323b7282bb",
  challengeTs: 1795993589536,
  client: { id: "cli", version: "2026.4.2", platform: "linux", mode: "cli" },
  auth: { token: "test-token-123" },
  role: "operator",
  scopes: [
    "operator.admin",
    "operator.read",
    "operator.write",
    "operator.approvals",
    "operator.pairing",
  ],
  device: {
    id: "10ba2dea4018d8df2bafbacd4f4888ea9f7ece021aff1388a5711947db2616f4",
    publicKey: "pYb2Qz3FTiDaNz5UVCf7Hl3N1EE6rR0_AyAlAFQMcpk",
    signature:
      "2OhmLUx3TN4EtmYCv9ZJblV7ji8HzNL7PQcclb-8d_BRIYSFDQCPZQRwZD6SHjLEpB2fJ1GA_rSP2di8vHIqDw",
    signedAt: 1795993589541,
    nonce: "703144a3-5c0c-4713-b413-13323b7282bb",
  },
  signed:
    "v3|10ba2dea4018d8df2bafbacd4f4888ea9f7ece021aff1388a5711947db2616f4|cli|cli|operator|operator.admin,operator.read,operator.write,operator.approvals,operator.pairing|1795993589541|test-token-123|703144a3-5c0c-4713-b413-13323b7282bb|linux|",
};

function verifyVector(overrides: {
  device?: Partial<DeviceProof>;
  client?: Partial<DeviceClientInfo>;
  token?: string;
  scopes?: string[];
  role?: string;
  now?: number;
}) {
  return verifyDeviceProof({
    device: { ...VECTOR.device, ...overrides.device },
    client: { ...VECTOR.client, ...overrides.client },
    role: overrides.role ?? VECTOR.role,
    scopes: overrides.scopes ?? VECTOR.scopes,
    token: overrides.token ?? signatureToken(VECTOR.auth),
    expectedNonce: VECTOR.nonce,
    now: overrides.now ?? VECTOR.challengeTs + 40,
  });
}

/** Flips one bit of the base64url value's decoded byte at `index` and re-encodes it. */
function flipByte(base64Url: string, index: number): string {
  const bytes = Buffer.from(base64Url, "base64url");
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString("base64url");
}

describe("captured protocol-3 test vector", () => {
  it("builds exactly the captured v3 string", () => {
    expect(
      buildDeviceAuthPayload({
        version: "v3",
        deviceId: VECTOR.device.id,
        clientId: VECTOR.client.id,
        clientMode: VECTOR.client.mode,
        role: VECTOR.role,
        scopes: VECTOR.scopes,
        signedAtMs: VECTOR.device.signedAt,
        token: signatureToken(VECTOR.auth),
        nonce: VECTOR.nonce,
        platform: VECTOR.client.platform,
      }),
    ).toBe(VECTOR.signed);
    expect(deriveDeviceId(VECTOR.device.publicKey)).toBe(VECTOR.device.id);
  });

  it("verifies the captured signature as v3", () => {
    expect(verifyVector({})).toEqual({ ok: true, deviceId: VECTOR.device.id, version: "v3" });
  });

  it("fails when any byte of the signature changes", () => {
    for (let i = 0; i < 64; i++) {
      const result = verifyVector({ device: { signature: flipByte(VECTOR.device.signature, i) } });
      expect(result, `byte ${i}`).toMatchObject({
        ok: false,
        code: "DEVICE_AUTH_SIGNATURE_INVALID",
      });
    }
  });

  it("fails when any signed field changes", () => {
    const invalid = { ok: false, code: "DEVICE_AUTH_SIGNATURE_INVALID" };
    expect(verifyVector({ client: { id: "webchat" } })).toMatchObject(invalid);
    expect(verifyVector({ client: { mode: "ui" } })).toMatchObject(invalid);
    expect(verifyVector({ client: { platform: "darwin" } })).toMatchObject(invalid);
    expect(verifyVector({ client: { deviceFamily: "desktop" } })).toMatchObject(invalid);
    expect(verifyVector({ role: "node" })).toMatchObject(invalid);
    expect(verifyVector({ scopes: VECTOR.scopes.slice(1) })).toMatchObject(invalid);
    expect(verifyVector({ token: "test-token-124" })).toMatchObject(invalid);
    expect(verifyVector({ token: "" })).toMatchObject(invalid);
    expect(verifyVector({ device: { signedAt: VECTOR.device.signedAt + 1 } })).toMatchObject(
      invalid,
    );
  });

  it("accepts platform differing only in case and surrounding space (normalized)", () => {
    expect(verifyVector({ client: { platform: "  Linux " } })).toMatchObject({ ok: true });
  });
});

describe("verifyDeviceProof", () => {
  const identity = createDeviceIdentity();
  const client = { id: "openclaw-macos", mode: "ui", platform: "macOS", deviceFamily: "Mac" };
  const base = { client, role: "operator", scopes: ["operator.read"], token: "tok" };
  const now = 1_700_000_000_000;
  const proof = (over: { version?: "v2" | "v3"; nonce?: string; signedAt?: number } = {}) =>
    signDeviceProof({
      identity,
      ...base,
      nonce: over.nonce ?? "n-1",
      signedAt: over.signedAt ?? now,
      ...(over.version ? { version: over.version } : {}),
    });
  const check = (device: DeviceProof, at = now) =>
    verifyDeviceProof({ device, ...base, expectedNonce: "n-1", now: at });

  it("accepts our own v3 proof and a v2 proof", () => {
    expect(check(proof())).toEqual({ ok: true, deviceId: identity.deviceId, version: "v3" });
    expect(check(proof({ version: "v2" }))).toEqual({
      ok: true,
      deviceId: identity.deviceId,
      version: "v2",
    });
    expect(identity.deviceId).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a missing or wrong nonce", () => {
    const { nonce: _nonce, ...withoutNonce } = proof();
    expect(check(withoutNonce)).toMatchObject({ code: "DEVICE_AUTH_NONCE_REQUIRED" });
    expect(check(proof({ nonce: "n-2" }))).toMatchObject({ code: "DEVICE_AUTH_NONCE_MISMATCH" });
  });

  it("refuses a signature outside ±120 s", () => {
    expect(check(proof(), now + 120_000)).toMatchObject({ ok: true });
    expect(check(proof(), now + 120_001)).toMatchObject({ code: "DEVICE_AUTH_SIGNATURE_EXPIRED" });
    expect(check(proof(), now - 120_001)).toMatchObject({ code: "DEVICE_AUTH_SIGNATURE_EXPIRED" });
  });

  it("refuses a bad public key and a device id that is not the key's hash", () => {
    expect(check({ ...proof(), publicKey: "AAAA" })).toMatchObject({
      code: "DEVICE_AUTH_PUBLIC_KEY_INVALID",
    });
    expect(check({ ...proof(), publicKey: "not base64!" })).toMatchObject({
      code: "DEVICE_AUTH_PUBLIC_KEY_INVALID",
    });
    const other = createDeviceIdentity();
    expect(check({ ...proof(), id: other.deviceId })).toMatchObject({
      code: "DEVICE_AUTH_DEVICE_ID_MISMATCH",
    });
    // Someone else's key with a matching id, but our signature: the signature fails.
    expect(check({ ...proof(), id: other.deviceId, publicKey: other.publicKey })).toMatchObject({
      code: "DEVICE_AUTH_SIGNATURE_INVALID",
    });
  });

  it("refuses a malformed signature", () => {
    expect(check({ ...proof(), signature: "abc" })).toMatchObject({
      code: "DEVICE_AUTH_SIGNATURE_INVALID",
    });
  });
});
