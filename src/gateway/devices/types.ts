// Shapes of the pairing store's files and of the device authority's inputs and results.
import type { DeviceProof } from "./proof.js";

/** Time source; tests pass a fake one. */
export interface DeviceClock {
  now(): number;
}

/** Random bytes source (defaults to `node:crypto` randomBytes); tests may pass a fixed one. */
export type RandomBytes = (size: number) => Uint8Array;

/** What a device said about itself when it asked to pair (platform/deviceFamily normalized). */
export interface PairingMetadata {
  platform: string;
  deviceFamily: string;
  clientId: string;
  clientMode: string;
  role: string;
  scopes: string[];
  displayName?: string;
}

/** One issued device token; only its SHA-256 hash is stored. */
export interface DeviceTokenRecord {
  tokenHash: string;
  issuedAt: number;
  lastUsedAt?: number;
  revokedAt?: number;
}

/**
 * A paired device (`devices/paired.json`, keyed by deviceId); platform/deviceFamily are pinned.
 * `role`/`scopes` are what an operator (or loopback auto-pairing) approved: a device token grants
 * no more. `roles` lists every approved role once a role upgrade was approved (else just `role`).
 */
export interface PairedDevice extends PairingMetadata {
  deviceId: string;
  roles?: string[];
  publicKey: string;
  approvedAt: number;
  approvedBy: "auto-loopback" | "operator";
  /** Set by `revoke`: the device must be approved again by an operator. */
  revokedAt?: number;
  tokens: DeviceTokenRecord[];
}

/** Why a device waits for approval. */
export type PairingReason =
  | "not-paired"
  | "revoked"
  | "metadata-changed"
  | "role-upgrade"
  | "scope-upgrade";

/** What a paired device was approved for when it asked for more (shown next to the request). */
export interface ApprovedAccess {
  roles: string[];
  scopes: string[];
}

/**
 * A device waiting for approval (`devices/pending.json`, keyed by requestId). `metadata.role` and
 * `metadata.scopes` are the access asked for; approving an upgrade adds them to what was approved.
 */
export interface PendingPairingRequest {
  requestId: string;
  deviceId: string;
  publicKey: string;
  metadata: PairingMetadata;
  remoteAddress: string;
  requestedAt: number;
  /** Absent in requests written before reasons were recorded (treated as `not-paired`). */
  reason?: PairingReason;
  /** Set for requests of an already paired device. */
  approved?: ApprovedAccess;
}

/** A freshly issued token: the raw value is returned once and never stored. */
export interface IssuedDeviceToken {
  token: string;
  issuedAt: number;
}

/** Options of the pairing store. */
/** Where the pairing store keeps its two documents (`paired`, `pending`) when not in files. */
export interface DeviceDocuments {
  /** What to call it in messages. */
  readonly where: string;
  /** The document's object ({} when it was never written). */
  read(name: "paired" | "pending"): Promise<Record<string, unknown>>;
  write(name: "paired" | "pending", data: Record<string, unknown>): Promise<void>;
}

export interface DeviceStoreOptions {
  stateDir: string;
  /** Keep the documents here (PostgreSQL with cluster.store) instead of `<stateDir>/devices/`. */
  documents?: DeviceDocuments;
  clock: DeviceClock;
  random?: RandomBytes;
  /** Default 1 hour. */
  pendingTtlMs?: number;
  /** Default 50. */
  maxPending?: number;
}

/** `connect` fields the authority needs; the gateway has already validated the frame's schema. */
export interface VerifyConnectInput {
  device?: DeviceProof;
  auth?: { token?: string; deviceToken?: string; bootstrapToken?: string; password?: string };
  client: {
    id: string;
    mode: string;
    platform?: string;
    deviceFamily?: string;
    displayName?: string;
  };
  role: string;
  scopes: string[];
  /** The nonce of this connection's `connect.challenge`. */
  nonce: string;
  remoteAddress: string;
  isLoopback: boolean;
  /** Whether `gateway.auth` (mode none, or a matching token/password) already passed. */
  sharedAuthOk: boolean;
  /**
   * The role and scopes the connection would be granted (the gateway defaults omitted scopes to
   * read + write, and gives role node none); default `role` and `scopes`. Without shared auth it
   * must be covered by the device's approval.
   */
  access?: { role: string; scopes: string[] };
}

/** A refused connect: the top-level wire error code, a message and `details.code` plus extras. */
export interface VerifyConnectError {
  code: "INVALID_REQUEST" | "NOT_PAIRED";
  message: string;
  details: { code: string } & Record<string, unknown>;
}

/** Outcome of `verifyConnect`; a new `deviceToken` goes into hello-ok `auth` with `issuedAtMs`. */
export type VerifyConnectResult =
  | {
      ok: true;
      deviceId?: string;
      deviceToken?: string;
      issuedAtMs?: number;
      paired: boolean;
    }
  | { ok: false; error: VerifyConnectError };
