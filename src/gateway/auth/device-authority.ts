// The gateway's default device authority: the pairing store in `<stateDir>/devices/` behind the
// handshake's DeviceAuthority interface (Ed25519 proof, loopback auto-pairing, device tokens bound to
// the approved role and scopes).

import type { Logger } from "../../lib/logger.js";
import {
  createDeviceAuthority,
  type DeviceDocuments,
  type DeviceStore,
  type PendingPairingRequest,
} from "../devices/index.js";
import type { DeviceAuthority } from "../ws/handshake.js";

/** Adapts the devices module to the handshake: verifies `connect.device` and issues device tokens;
 *  `store` is its pairing store (the `device.*` methods share it, so changes stay serialized). */
export function createGatewayDeviceAuthority(params: {
  stateDir: string;
  now: () => number;
  logger: Logger;
  /** Told of each pairing request the handshake records (`device.pair.requested`). */
  onPairingRequested?: (request: PendingPairingRequest) => void;
  /** The pairing store's documents in PostgreSQL (cluster.store) instead of `<stateDir>/devices/`. */
  documents?: DeviceDocuments;
}): DeviceAuthority & { store: DeviceStore } {
  const devices = createDeviceAuthority({
    stateDir: params.stateDir,
    ...(params.documents ? { documents: params.documents } : {}),
    clock: { now: params.now },
    logger: params.logger,
    ...(params.onPairingRequested ? { onPairingRequested: params.onPairingRequested } : {}),
  });
  return {
    store: devices.store,
    async verifyConnect(input) {
      const { params: connect } = input;
      const result = await devices.verifyConnect({
        ...(connect.device ? { device: connect.device } : {}),
        ...(connect.auth ? { auth: connect.auth } : {}),
        client: connect.client,
        role: connect.role ?? "operator",
        scopes: connect.scopes ?? [],
        nonce: input.challenge.nonce,
        remoteAddress: input.remoteAddress,
        isLoopback: input.isLoopback,
        sharedAuthOk: input.sharedAuthOk,
        access: input.access,
      });
      if (!result.ok) return { ok: false, error: result.error };
      // The handshake only asks when `connect.device` is present, so the device id is known.
      return {
        ok: true,
        deviceId: result.deviceId ?? connect.device?.id ?? "",
        ...(result.deviceToken ? { deviceToken: result.deviceToken } : {}),
        ...(result.issuedAtMs !== undefined ? { issuedAtMs: result.issuedAtMs } : {}),
      };
    },
  };
}
