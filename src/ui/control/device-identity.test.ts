import { describe, expect, it } from "vitest";
import type { DeviceSignInput } from "../../client/types.js";
import {
  base64Url,
  browserDeviceSigner,
  deviceAuthPayload,
  identityOf,
} from "./device-identity.js";

const INPUT: DeviceSignInput = {
  nonce: "n-1",
  client: { id: "openclaw-control-ui", version: "0.1.0", platform: " Web ", mode: "webchat" },
  role: "operator",
  scopes: ["operator.admin", "operator.read"],
  token: "tok",
};

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

describe("browser device identity", () => {
  it("builds the gateway's v3 string (platform and family lowercased and trimmed)", () => {
    expect(deviceAuthPayload({ deviceId: "abc", input: INPUT, signedAt: 1700 })).toBe(
      "v3|abc|openclaw-control-ui|webchat|operator|operator.admin,operator.read|1700|tok|n-1|web|",
    );
  });

  it("signs it with a WebCrypto Ed25519 key: id = sha256(raw key), signature verifies", async () => {
    const { subtle } = globalThis.crypto;
    const keys = (await subtle.generateKey({ name: "Ed25519" }, false, [
      "sign",
      "verify",
    ])) as CryptoKeyPair;
    const identity = await identityOf(keys, subtle);
    const raw = new Uint8Array(await subtle.exportKey("raw", keys.publicKey));
    expect(identity.publicKey).toBe(base64Url(raw));
    expect(fromBase64Url(identity.publicKey)).toHaveLength(32);
    const digest = new Uint8Array(await subtle.digest("SHA-256", raw));
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
    expect(identity.deviceId).toBe(hex);
    const block = await browserDeviceSigner({ identity, subtle, now: () => 1234 })(INPUT);
    expect(block).toMatchObject({ id: identity.deviceId, signedAt: 1234, nonce: "n-1" });
    const payload = deviceAuthPayload({
      deviceId: identity.deviceId,
      input: INPUT,
      signedAt: 1234,
    });
    const ok = await subtle.verify(
      { name: "Ed25519" },
      keys.publicKey,
      fromBase64Url(block.signature),
      new TextEncoder().encode(payload),
    );
    expect(ok).toBe(true);
  });
});
