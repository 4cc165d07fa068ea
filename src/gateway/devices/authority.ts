// The connect-time device check: verifies the `device` proof, refuses replayed nonces, checks device
// tokens, pins platform/deviceFamily, auto-pairs loopback devices and queues remote ones for approval.
// A device token grants at most the role and scopes the device was approved for; more is a
// role-upgrade / scope-upgrade request an operator approves (the shared secret stays the master key).

import { type Logger, silentLogger } from "../../lib/logger.js";
import { accessUpgrade, approvedRoles } from "./access.js";
import {
  DEVICE_SIGNATURE_SKEW_MS,
  normalizeDeviceMetadata,
  signatureToken,
  verifyDeviceProof,
} from "./proof.js";
import { type DeviceStore, openDeviceStore } from "./store.js";
import type {
  DeviceClock,
  DeviceDocuments,
  PairedDevice,
  PairingMetadata,
  PairingReason,
  PendingPairingRequest,
  RandomBytes,
  VerifyConnectError,
  VerifyConnectInput,
  VerifyConnectResult,
} from "./types.js";

/** Most (device, nonce) pairs remembered for replay detection; the oldest are forgotten first. */
export const MAX_REMEMBERED_NONCES = 10_000;

/** Options of {@link createDeviceAuthority}. */
export interface DeviceAuthorityOptions {
  stateDir: string;
  clock: DeviceClock;
  logger?: Logger;
  random?: RandomBytes;
  /** Signature clock skew allowed either way; default 120 000 ms. */
  skewMs?: number;
  /** Passed to the store: pending request lifetime (default 1 h) and cap (default 50). */
  pendingTtlMs?: number;
  maxPending?: number;
  /** Told of every pairing request recorded (new or refreshed): the gateway's `device.pair.requested`. */
  onPairingRequested?: (request: PendingPairingRequest) => void;
  /** The store's documents outside the state dir (PostgreSQL). */
  documents?: DeviceDocuments;
}

/** Decides, at `connect`, whether a client's device may in; owns the pairing store and a nonce cache. */
export interface DeviceAuthority {
  readonly store: DeviceStore;
  verifyConnect(input: VerifyConnectInput): Promise<VerifyConnectResult>;
}

function refuse(error: VerifyConnectError): VerifyConnectResult {
  return { ok: false, error };
}

/** The access a connect asks for: what the gateway would grant (see VerifyConnectInput.access). */
function accessOf(input: VerifyConnectInput): { role: string; scopes: string[] } {
  return input.access ?? { role: input.role, scopes: input.scopes };
}

function metadataOf(input: VerifyConnectInput): PairingMetadata {
  const { client } = input;
  const access = accessOf(input);
  return {
    platform: normalizeDeviceMetadata(client.platform),
    deviceFamily: normalizeDeviceMetadata(client.deviceFamily),
    clientId: client.id,
    clientMode: client.mode,
    role: access.role,
    scopes: [...access.scopes],
    ...(client.displayName ? { displayName: client.displayName } : {}),
  };
}

/** The refusal message per pairing reason (OpenClaw's wording for upgrades). */
const PAIRING_MESSAGES: Record<PairingReason, string> = {
  "not-paired": "pairing required",
  revoked: "pairing required",
  "metadata-changed": "device metadata changed; pairing required again",
  "role-upgrade": "pairing required: device is asking for a higher role than currently approved",
  "scope-upgrade": "pairing required: device is asking for more scopes than currently approved",
};

/** Creates the authority over `<stateDir>/devices`; all state is per instance (no module state). */
export function createDeviceAuthority(options: DeviceAuthorityOptions): DeviceAuthority {
  const { clock } = options;
  const logger = options.logger ?? silentLogger;
  const skewMs = options.skewMs ?? DEVICE_SIGNATURE_SKEW_MS;
  const store = openDeviceStore({
    stateDir: options.stateDir,
    clock,
    ...(options.documents ? { documents: options.documents } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.pendingTtlMs !== undefined ? { pendingTtlMs: options.pendingTtlMs } : {}),
    ...(options.maxPending !== undefined ? { maxPending: options.maxPending } : {}),
  });
  /** `deviceId|nonce` → time after which the signature is stale anyway and the entry can go. */
  const seenNonces = new Map<string, number>();

  /** Records the nonce; false when this device already used it within the skew window. */
  const rememberNonce = (deviceId: string, nonce: string): boolean => {
    const at = clock.now();
    for (const [key, expiresAt] of seenNonces) {
      if (expiresAt > at && seenNonces.size <= MAX_REMEMBERED_NONCES) break;
      seenNonces.delete(key);
    }
    const key = `${deviceId}|${nonce}`;
    const expiresAt = seenNonces.get(key);
    if (expiresAt !== undefined && expiresAt > at) return false;
    seenNonces.delete(key);
    seenNonces.set(key, at + 2 * skewMs);
    return true;
  };

  const requirePairing = async (params: {
    input: VerifyConnectInput;
    deviceId: string;
    publicKey: string;
    reason: PairingReason;
    /** The device as paired now (metadata changes and upgrades). */
    current?: PairedDevice;
    extra?: Record<string, unknown>;
  }): Promise<VerifyConnectResult> => {
    const { input, deviceId, reason, current } = params;
    const approved = current
      ? { roles: approvedRoles(current), scopes: [...current.scopes] }
      : undefined;
    const metadata = metadataOf(input);
    const request = await store.requestPairing({
      deviceId,
      publicKey: params.publicKey,
      metadata,
      remoteAddress: input.remoteAddress,
      reason,
      ...(approved ? { approved } : {}),
    });
    logger.info(
      `device ${deviceId.slice(0, 12)} from ${input.remoteAddress} awaits pairing approval ` +
        `(request ${request.requestId}, ${reason})`,
    );
    options.onPairingRequested?.(request);
    const upgrade = reason === "role-upgrade" || reason === "scope-upgrade";
    const details: VerifyConnectError["details"] = upgrade
      ? {
          code: "PAIRING_REQUIRED",
          reason,
          requestId: request.requestId,
          deviceId,
          requestedRole: metadata.role,
          requestedScopes: metadata.scopes,
          approvedRoles: approved?.roles ?? [],
          approvedScopes: approved?.scopes ?? [],
          remediationHint: `approve it with: pincer devices approve ${request.requestId}`,
        }
      : reason === "metadata-changed"
        ? { code: "DEVICE_METADATA_CHANGED", requestId: request.requestId, ...params.extra }
        : { code: "PAIRING_REQUIRED", requestId: request.requestId, reason };
    return refuse({ code: "NOT_PAIRED", message: PAIRING_MESSAGES[reason], details });
  };

  const issue = async (device: PairedDevice): Promise<VerifyConnectResult> => {
    const issued = await store.issueToken(device.deviceId);
    if (!issued) throw new Error(`device ${device.deviceId} vanished while issuing its token`);
    return {
      ok: true,
      deviceId: device.deviceId,
      deviceToken: issued.token,
      issuedAtMs: issued.issuedAt,
      paired: true,
    };
  };

  const verifyConnect = async (input: VerifyConnectInput): Promise<VerifyConnectResult> => {
    const { device } = input;
    if (!device) {
      if (input.sharedAuthOk) return { ok: true, paired: false };
      return refuse({
        code: "NOT_PAIRED",
        message: "device identity required",
        details: { code: "DEVICE_IDENTITY_REQUIRED" },
      });
    }
    const proof = verifyDeviceProof({
      device,
      client: input.client,
      role: input.role,
      scopes: input.scopes,
      token: signatureToken(input.auth),
      expectedNonce: input.nonce,
      now: clock.now(),
      skewMs,
    });
    if (!proof.ok) {
      logger.warn(`device proof refused from ${input.remoteAddress}: ${proof.code}`);
      return refuse({
        code: "INVALID_REQUEST",
        message: proof.message,
        details: { code: proof.code },
      });
    }
    const { deviceId } = proof;
    if (!rememberNonce(deviceId, input.nonce)) {
      logger.warn(`replayed device nonce from ${input.remoteAddress} for ${deviceId.slice(0, 12)}`);
      return refuse({
        code: "INVALID_REQUEST",
        message: "device nonce already used",
        details: { code: "DEVICE_AUTH_NONCE_REPLAYED" },
      });
    }
    const known = await store.getPaired(deviceId);
    const active = known && known.revokedAt === undefined ? known : undefined;
    const presented = input.auth?.deviceToken;
    let tokenOk = false;
    if (presented !== undefined && presented !== "") {
      tokenOk = active !== undefined && (await store.verifyToken(deviceId, presented));
      if (!tokenOk) {
        return refuse({
          code: "INVALID_REQUEST",
          message: "unauthorized: device token invalid",
          details: {
            code: "DEVICE_TOKEN_INVALID",
            recommendedNextStep: "retry_without_device_token",
          },
        });
      }
    }
    // gateway.auth applies to every connection; a valid device token stands in for the shared secret.
    if (!input.sharedAuthOk && !tokenOk) {
      return refuse({
        code: "INVALID_REQUEST",
        message: "unauthorized: gateway auth or a device token required",
        details: { code: "AUTH_REQUIRED" },
      });
    }
    const metadata = metadataOf(input);
    if (active) {
      if (active.platform !== metadata.platform || active.deviceFamily !== metadata.deviceFamily) {
        return requirePairing({
          input,
          deviceId,
          publicKey: device.publicKey,
          reason: "metadata-changed",
          current: active,
          extra: {
            pinned: { platform: active.platform, deviceFamily: active.deviceFamily },
            presented: { platform: metadata.platform, deviceFamily: metadata.deviceFamily },
          },
        });
      }
      // Without the shared secret the device token is the credential: it grants no more than the
      // device's approval. Asking for more is never granted silently, not even on loopback.
      const upgrade = input.sharedAuthOk ? undefined : accessUpgrade(active, accessOf(input));
      if (upgrade) {
        logger.warn(
          `security audit: device ${deviceId.slice(0, 12)} from ${input.remoteAddress} asked for ` +
            `${upgrade} (role ${metadata.role}, scopes ${metadata.scopes.join(",") || "none"}; ` +
            `approved roles ${approvedRoles(active).join(",")}, scopes ${active.scopes.join(",") || "none"})`,
        );
        return requirePairing({
          input,
          deviceId,
          publicKey: device.publicKey,
          reason: upgrade,
          current: active,
        });
      }
      return tokenOk ? { ok: true, deviceId, paired: true } : issue(active);
    }
    // Unknown device (or one an operator revoked): loopback pairs itself, unless it was revoked.
    if (input.isLoopback && !known) {
      const paired = await store.pairDirectly({
        deviceId,
        publicKey: device.publicKey,
        metadata,
        approvedBy: "auto-loopback",
      });
      logger.info(`device ${deviceId.slice(0, 12)} paired automatically (loopback)`);
      return issue(paired);
    }
    return requirePairing({
      input,
      deviceId,
      publicKey: device.publicKey,
      reason: known ? "revoked" : "not-paired",
    });
  };

  return { store, verifyConnect };
}
