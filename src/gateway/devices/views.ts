// What the `device.*` methods and events show of the pairing store: pending requests flattened the
// way OpenClaw lists them (with Pincer's reason and current approval), paired devices with a summary
// of their tokens (never a token nor its hash) and whether they are connected now.
import { approvedRoles } from "./access.js";
import type { PairedDevice, PendingPairingRequest } from "./types.js";

/** A pending pairing request as `device.pair.list` and `device.pair.requested` carry it. */
export function pendingView(request: PendingPairingRequest) {
  const { metadata } = request;
  return {
    requestId: request.requestId,
    deviceId: request.deviceId,
    publicKey: request.publicKey,
    ...(metadata.displayName ? { displayName: metadata.displayName } : {}),
    platform: metadata.platform,
    deviceFamily: metadata.deviceFamily,
    clientId: metadata.clientId,
    clientMode: metadata.clientMode,
    role: metadata.role,
    roles: [metadata.role],
    scopes: [...metadata.scopes],
    remoteIp: request.remoteAddress,
    ts: request.requestedAt,
    reason: request.reason ?? "not-paired",
    approvedRoles: request.approved?.roles ?? [],
    approvedScopes: request.approved?.scopes ?? [],
  };
}

/** A paired (or revoked) device as `device.pair.list` shows it; `connected` when a live connection
 *  authenticated as it. */
export function pairedView(device: PairedDevice, connected: boolean) {
  return {
    deviceId: device.deviceId,
    publicKey: device.publicKey,
    ...(device.displayName ? { displayName: device.displayName } : {}),
    platform: device.platform,
    deviceFamily: device.deviceFamily,
    clientId: device.clientId,
    clientMode: device.clientMode,
    role: device.role,
    roles: approvedRoles(device),
    scopes: [...device.scopes],
    approvedAtMs: device.approvedAt,
    approvedBy: device.approvedBy,
    ...(device.revokedAt !== undefined ? { revokedAtMs: device.revokedAt } : {}),
    connected,
    tokens: device.tokens.map((t) => ({
      issuedAtMs: t.issuedAt,
      ...(t.lastUsedAt !== undefined ? { lastUsedAtMs: t.lastUsedAt } : {}),
      ...(t.revokedAt !== undefined ? { revokedAtMs: t.revokedAt } : {}),
    })),
  };
}

/** A pending request view (the `device.pair.requested` payload). */
export type PendingView = ReturnType<typeof pendingView>;
/** A paired device view (an entry of `device.pair.list` `paired`). */
export type PairedView = ReturnType<typeof pairedView>;
