// The persistent pairing store: `<stateDir>/devices/paired.json` and `pending.json` (mode 0600, atomic
// writes). Every operation re-reads the files, so a running gateway sees `pincer devices approve` at once;
// changes within one store instance are serialized. Device tokens are kept only as SHA-256 hashes.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomicAsync } from "../../lib/atomic-write.js";
import { approvedRoles, unionOf } from "./access.js";
import type {
  ApprovedAccess,
  DeviceStoreOptions,
  IssuedDeviceToken,
  PairedDevice,
  PairingMetadata,
  PairingReason,
  PendingPairingRequest,
} from "./types.js";

/** A pending request expires this long after it was last requested. */
export const DEFAULT_PENDING_TTL_MS = 60 * 60_000;
/** At most this many pending requests are kept; the oldest are dropped first. */
export const DEFAULT_MAX_PENDING = 50;
/** At most this many unrevoked tokens per device; issuing more revokes the oldest. */
export const MAX_ACTIVE_TOKENS_PER_DEVICE = 8;

type PairedFile = Record<string, PairedDevice>;
type PendingFile = Record<string, PendingPairingRequest>;

/** Inputs of {@link DeviceStore.requestPairing}. */
export interface PairingRequestInput {
  deviceId: string;
  publicKey: string;
  /** The device's metadata and the role/scopes it asks for. */
  metadata: PairingMetadata;
  remoteAddress: string;
  reason: PairingReason;
  /** What the device is approved for now (requests of an already paired device). */
  approved?: ApprovedAccess;
}

/** Inputs of {@link DeviceStore.pairDirectly} (auto-approval without a pending request). */
export interface DirectPairingInput {
  deviceId: string;
  publicKey: string;
  metadata: PairingMetadata;
  approvedBy: PairedDevice["approvedBy"];
}

/** The pairing store over one state dir; see {@link openDeviceStore}. */
export interface DeviceStore {
  /** `<stateDir>/devices`. */
  readonly dir: string;
  listPaired(): Promise<PairedDevice[]>;
  getPaired(deviceId: string): Promise<PairedDevice | undefined>;
  /** Unexpired pending requests, oldest first (expired ones are pruned). */
  listPending(): Promise<PendingPairingRequest[]>;
  /** Records (or refreshes, keeping its id) the device's pending request. */
  requestPairing(input: PairingRequestInput): Promise<PendingPairingRequest>;
  /** Pairs without a request (loopback auto-approval); replaces any pending request of the device. */
  pairDirectly(input: DirectPairingInput): Promise<PairedDevice>;
  /**
   * Approves a pending request by an operator; undefined when it is unknown or expired. For a device
   * that is still paired (an upgrade or a metadata change) the requested role and scopes are added to
   * what it had; after a revoke they replace it.
   */
  approve(
    requestId: string,
    /** Re-checked on the request as it is when approved (a refreshed request may ask for more). */
    allow?: (request: PendingPairingRequest) => boolean,
  ): Promise<PairedDevice | undefined>;
  /** Drops a pending request; undefined when it is unknown or expired. */
  reject(requestId: string): Promise<PendingPairingRequest | undefined>;
  /** Revokes a paired device and all its tokens; undefined when the device is not paired. */
  revoke(deviceId: string): Promise<PairedDevice | undefined>;
  /** Withdraws one approved role of a device that has others (its tokens stop granting it; asking for
   * it again is a role upgrade); undefined when the device is not paired or lacks the role. */
  revokeRole(deviceId: string, role: string): Promise<PairedDevice | undefined>;
  /** Issues a new random device token (returned raw once, stored hashed); undefined for an unpaired device. */
  issueToken(deviceId: string): Promise<IssuedDeviceToken | undefined>;
  /** Revokes every token of a paired device, then issues a new one (returned raw once); undefined
   * for an unpaired or revoked device. */
  rotateToken(deviceId: string): Promise<IssuedDeviceToken | undefined>;
  /** Revokes every token of a paired device, which stays paired (a connect with the shared secret
   * gets a new token); the time of the revoke, or undefined for an unpaired or revoked device. */
  revokeTokens(deviceId: string): Promise<number | undefined>;
  /** Whether `token` is an unrevoked token of the (unrevoked) device; records `lastUsedAt`. */
  verifyToken(deviceId: string, token: string): Promise<boolean>;
}

/** SHA-256 hex of a device token: the only form of a token on disk. */
export function hashDeviceToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

async function readJsonObject<T>(path: string): Promise<Record<string, T>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if (isErrno(err, "ENOENT")) return {};
    throw err;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, T>;
    }
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  throw new Error(`${path} must hold a JSON object`);
}

function uuidFrom(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** Opens the pairing store of a state dir (files are created on the first change). */
export function openDeviceStore(options: DeviceStoreOptions): DeviceStore {
  const dir = join(options.stateDir, "devices");
  const pairedPath = join(dir, "paired.json");
  const pendingPath = join(dir, "pending.json");
  const random = options.random ?? ((size: number) => randomBytes(size));
  const ttlMs = options.pendingTtlMs ?? DEFAULT_PENDING_TTL_MS;
  const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
  const now = () => options.clock.now();
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every earlier change of this instance (read-modify-write stays whole). */
  const serialized = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task, task);
    // The caller gets any failure through `result`; the chain itself only has to keep going.
    queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
  const docs = options.documents;
  const readPaired = async (): Promise<PairedFile> =>
    docs ? ((await docs.read("paired")) as PairedFile) : readJsonObject<PairedDevice>(pairedPath);
  const writePaired = (data: PairedFile) =>
    docs
      ? docs.write("paired", data)
      : writeFileAtomicAsync(pairedPath, `${JSON.stringify(data, null, 2)}\n`);
  const writePending = (data: PendingFile) =>
    docs
      ? docs.write("pending", data)
      : writeFileAtomicAsync(pendingPath, `${JSON.stringify(data, null, 2)}\n`);
  /** Reads pending requests without the expired ones; `changed` says whether any were dropped. */
  const readPending = async (): Promise<{ pending: PendingFile; changed: boolean }> => {
    const all = docs
      ? ((await docs.read("pending")) as PendingFile)
      : await readJsonObject<PendingPairingRequest>(pendingPath);
    const at = now();
    const pending: PendingFile = {};
    for (const [id, request] of Object.entries(all)) {
      if (at - request.requestedAt <= ttlMs) pending[id] = request;
    }
    return { pending, changed: Object.keys(pending).length !== Object.keys(all).length };
  };
  const byAge = (a: PendingPairingRequest, b: PendingPairingRequest) =>
    a.requestedAt - b.requestedAt;

  const pairFromMetadata = (
    input: DirectPairingInput,
    previous: PairedDevice | undefined,
  ): PairedDevice => {
    const { metadata } = input;
    // Re-approval of a paired device keeps its tokens and what it was approved for; after a revoke
    // both stay gone.
    const kept = previous && previous.revokedAt === undefined ? previous : undefined;
    return {
      deviceId: input.deviceId,
      publicKey: input.publicKey,
      platform: metadata.platform,
      deviceFamily: metadata.deviceFamily,
      clientId: metadata.clientId,
      clientMode: metadata.clientMode,
      role: metadata.role,
      roles: unionOf(kept ? approvedRoles(kept) : [], [metadata.role]),
      scopes: unionOf(kept?.scopes ?? [], metadata.scopes),
      ...(metadata.displayName ? { displayName: metadata.displayName } : {}),
      approvedAt: now(),
      approvedBy: input.approvedBy,
      tokens: kept?.tokens ?? [],
    };
  };

  /** Issues a token to an active device; `rotate` revokes its other tokens first. */
  const issue = async (
    deviceId: string,
    rotate: boolean,
  ): Promise<IssuedDeviceToken | undefined> => {
    const paired = await readPaired();
    const device = paired[deviceId];
    if (!device || device.revokedAt !== undefined) return undefined;
    const token = Buffer.from(random(32)).toString("base64url");
    const issuedAt = now();
    // Keep the newest unrevoked tokens; revoked ones can never verify again, so they are dropped.
    const active = rotate ? [] : device.tokens.filter((t) => t.revokedAt === undefined);
    device.tokens = [
      ...active.slice(Math.max(0, active.length - (MAX_ACTIVE_TOKENS_PER_DEVICE - 1))),
      { tokenHash: hashDeviceToken(token), issuedAt },
    ];
    await writePaired(paired);
    return { token, issuedAt };
  };

  const store: DeviceStore = {
    dir,
    listPaired: async () =>
      Object.values(await readPaired()).sort((a, b) => a.approvedAt - b.approvedAt),
    getPaired: async (deviceId) => (await readPaired())[deviceId],
    listPending: () =>
      serialized(async () => {
        const { pending, changed } = await readPending();
        if (changed) await writePending(pending);
        return Object.values(pending).sort(byAge);
      }),
    requestPairing: (input) =>
      serialized(async () => {
        const { pending } = await readPending();
        const existing = Object.values(pending).find((r) => r.deviceId === input.deviceId);
        const request: PendingPairingRequest = {
          requestId: existing?.requestId ?? uuidFrom(random(16)),
          deviceId: input.deviceId,
          publicKey: input.publicKey,
          metadata: { ...input.metadata, scopes: [...input.metadata.scopes] },
          remoteAddress: input.remoteAddress,
          requestedAt: now(),
          reason: input.reason,
          ...(input.approved ? { approved: input.approved } : {}),
        };
        pending[request.requestId] = request;
        const ordered = Object.values(pending).sort(byAge);
        for (const old of ordered.slice(0, Math.max(0, ordered.length - maxPending))) {
          delete pending[old.requestId];
        }
        await writePending(pending);
        return request;
      }),
    pairDirectly: (input) =>
      serialized(async () => {
        const paired = await readPaired();
        const device = pairFromMetadata(input, paired[input.deviceId]);
        paired[input.deviceId] = device;
        await writePaired(paired);
        const { pending, changed } = await readPending();
        const stale = Object.values(pending).filter((r) => r.deviceId === input.deviceId);
        for (const request of stale) delete pending[request.requestId];
        if (changed || stale.length > 0) await writePending(pending);
        return device;
      }),
    approve: (requestId, allow) =>
      serialized(async () => {
        const { pending } = await readPending();
        const request = pending[requestId];
        if (!request || (allow && !allow(request))) return undefined;
        const paired = await readPaired();
        const device = pairFromMetadata(
          { ...request, approvedBy: "operator" },
          paired[request.deviceId],
        );
        paired[request.deviceId] = device;
        await writePaired(paired);
        delete pending[requestId];
        await writePending(pending);
        return device;
      }),
    reject: (requestId) =>
      serialized(async () => {
        const { pending } = await readPending();
        const request = pending[requestId];
        if (!request) return undefined;
        delete pending[requestId];
        await writePending(pending);
        return request;
      }),
    revoke: (deviceId) =>
      serialized(async () => {
        const paired = await readPaired();
        const device = paired[deviceId];
        if (!device) return undefined;
        const at = now();
        device.revokedAt = device.revokedAt ?? at;
        device.tokens = device.tokens.map((t) => (t.revokedAt ? t : { ...t, revokedAt: at }));
        await writePaired(paired);
        return device;
      }),
    revokeRole: (deviceId, role) =>
      serialized(async () => {
        const paired = await readPaired();
        const device = paired[deviceId];
        if (!device || device.revokedAt !== undefined) return undefined;
        const roles = approvedRoles(device);
        if (!roles.includes(role) || roles.length < 2) return undefined;
        device.roles = roles.filter((r) => r !== role);
        if (device.role === role) device.role = device.roles[0]!;
        // Operator scopes only mean something to the operator role.
        if (role === "operator")
          device.scopes = device.scopes.filter((s) => !s.startsWith("operator."));
        await writePaired(paired);
        return device;
      }),
    issueToken: (deviceId) => serialized(() => issue(deviceId, false)),
    rotateToken: (deviceId) => serialized(() => issue(deviceId, true)),
    revokeTokens: (deviceId) =>
      serialized(async () => {
        const paired = await readPaired();
        const device = paired[deviceId];
        if (!device || device.revokedAt !== undefined) return undefined;
        const at = now();
        device.tokens = device.tokens.map((t) => (t.revokedAt ? t : { ...t, revokedAt: at }));
        await writePaired(paired);
        return at;
      }),
    verifyToken: (deviceId, token) =>
      serialized(async () => {
        const paired = await readPaired();
        const device = paired[deviceId];
        if (!device || device.revokedAt !== undefined || token === "") return false;
        const hash = hashDeviceToken(token);
        const entry = device.tokens.find(
          (t) => t.revokedAt === undefined && sameHash(t.tokenHash, hash),
        );
        if (!entry) return false;
        entry.lastUsedAt = now();
        await writePaired(paired);
        return true;
      }),
  };
  return store;
}
