// Device proofs for the gateway client from an Ed25519 identity (Node only: uses node:crypto).
import { type DeviceIdentity, signDeviceProof } from "../gateway/devices/index.js";
import type { DeviceSigner } from "./types.js";

/** A signer that proves `identity` at connect (v3 string, signed now over the challenge nonce). */
export function deviceSigner(identity: DeviceIdentity, now: () => number = Date.now): DeviceSigner {
  return (input) =>
    signDeviceProof({
      identity,
      client: {
        id: input.client.id,
        mode: input.client.mode,
        platform: input.client.platform,
        ...(input.client.deviceFamily ? { deviceFamily: input.client.deviceFamily } : {}),
      },
      role: input.role,
      scopes: input.scopes,
      token: input.token,
      nonce: input.nonce,
      signedAt: now(),
    });
}
