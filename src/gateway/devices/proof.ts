// Device identity proofs of the connect handshake: the v3/v2 signed strings, Ed25519 verification of a
// client's `device` block, and (for our own client and tests) creating identities and signing proofs.
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from "node:crypto";

/** How far `device.signedAt` may be from the server clock, either way (OpenClaw's value). */
export const DEVICE_SIGNATURE_SKEW_MS = 120_000;

/** Detail codes of a refused device proof (sent as `error.details.code` with `INVALID_REQUEST`). */
export type DeviceProofErrorCode =
  | "DEVICE_AUTH_NONCE_REQUIRED"
  | "DEVICE_AUTH_NONCE_MISMATCH"
  | "DEVICE_AUTH_SIGNATURE_INVALID"
  | "DEVICE_AUTH_SIGNATURE_EXPIRED"
  | "DEVICE_AUTH_DEVICE_ID_MISMATCH"
  | "DEVICE_AUTH_PUBLIC_KEY_INVALID";

/** The `device` block of `connect` params, as clients send it. */
export interface DeviceProof {
  id: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  publicKey: string;
  /** Ed25519 signature over the v3 (or v2) string, base64url. */
  signature: string;
  signedAt: number;
  nonce?: string;
}

/** The `client` fields that enter the signed string. */
export interface DeviceClientInfo {
  id: string;
  mode: string;
  platform?: string;
  deviceFamily?: string;
}

/** Signed-string versions: v3 binds platform and deviceFamily, v2 does not. */
export type DeviceAuthVersion = "v3" | "v2";

/** Fields of the signed string; see {@link buildDeviceAuthPayload}. */
export interface DeviceAuthPayloadParams {
  version: DeviceAuthVersion;
  deviceId: string;
  clientId: string;
  clientMode: string;
  role: string;
  scopes: readonly string[];
  signedAtMs: number;
  /** `auth.token ?? auth.deviceToken ?? auth.bootstrapToken ?? ""` (see {@link signatureToken}). */
  token: string;
  nonce: string;
  platform?: string;
  deviceFamily?: string;
}

/** Trims and ASCII-lowercases platform/deviceFamily (missing → ""), as the v3 string and pinning use them. */
export function normalizeDeviceMetadata(value: string | undefined): string {
  return (value ?? "").trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Builds the exact UTF-8 string a device signs: `v3|id|client|mode|role|scopes|signedAt|token|nonce|platform|family`. */
export function buildDeviceAuthPayload(params: DeviceAuthPayloadParams): string {
  const fields = [
    params.version,
    params.deviceId,
    params.clientId,
    params.clientMode,
    params.role,
    params.scopes.join(","),
    String(params.signedAtMs),
    params.token,
    params.nonce,
  ];
  if (params.version === "v3") {
    fields.push(
      normalizeDeviceMetadata(params.platform),
      normalizeDeviceMetadata(params.deviceFamily),
    );
  }
  return fields.join("|");
}

/** The token that enters the signed string: `auth.token ?? auth.deviceToken ?? auth.bootstrapToken ?? ""`. */
export function signatureToken(
  auth: { token?: string; deviceToken?: string; bootstrapToken?: string } | undefined,
): string {
  return auth?.token ?? auth?.deviceToken ?? auth?.bootstrapToken ?? "";
}

/** Decodes base64url (also tolerating standard base64 and padding); undefined for other input. */
export function decodeBase64Url(text: string): Buffer | undefined {
  const trimmed = text.trim().replace(/=+$/, "");
  if (trimmed === "" || !/^[A-Za-z0-9_+/-]+$/.test(trimmed)) return undefined;
  return Buffer.from(trimmed.replace(/\+/g, "-").replace(/\//g, "_"), "base64url");
}

/** Lowercase hex SHA-256 of the raw 32-byte public key; undefined when the key is not 32 bytes of base64url. */
export function deriveDeviceId(publicKeyBase64Url: string): string | undefined {
  const raw = decodeBase64Url(publicKeyBase64Url);
  if (raw?.length !== 32) return undefined;
  return createHash("sha256").update(raw).digest("hex");
}

function publicKeyObject(publicKeyBase64Url: string): KeyObject | undefined {
  const raw = decodeBase64Url(publicKeyBase64Url);
  if (raw?.length !== 32) return undefined;
  try {
    return createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") },
      format: "jwk",
    });
  } catch (err) {
    // Not a point on the curve: report it as an invalid key (the caller's error code says so).
    if (err instanceof Error) return undefined;
    throw err;
  }
}

/** Inputs of {@link verifyDeviceProof}. */
export interface VerifyDeviceProofParams {
  device: DeviceProof;
  client: DeviceClientInfo;
  role: string;
  scopes: readonly string[];
  /** The token the client signed over; use {@link signatureToken} on `connect.auth`. */
  token: string;
  /** The nonce of the `connect.challenge` this connection was sent. */
  expectedNonce: string;
  /** Server time in ms. */
  now: number;
  /** Defaults to {@link DEVICE_SIGNATURE_SKEW_MS}. */
  skewMs?: number;
}

/** Outcome of {@link verifyDeviceProof}: the verified device id and string version, or a detail code. */
export type DeviceProofResult =
  | { ok: true; deviceId: string; version: DeviceAuthVersion }
  | { ok: false; code: DeviceProofErrorCode; message: string };

function fail(code: DeviceProofErrorCode, message: string): DeviceProofResult {
  return { ok: false, code, message };
}

/** Checks nonce, key, device id, clock skew and the Ed25519 signature (v3 first, then v2). */
export function verifyDeviceProof(params: VerifyDeviceProofParams): DeviceProofResult {
  const { device } = params;
  const nonce = typeof device.nonce === "string" ? device.nonce.trim() : "";
  if (nonce === "") return fail("DEVICE_AUTH_NONCE_REQUIRED", "device nonce required");
  const key = publicKeyObject(device.publicKey);
  const derived = deriveDeviceId(device.publicKey);
  if (!key || !derived) {
    return fail("DEVICE_AUTH_PUBLIC_KEY_INVALID", "device public key is not a raw Ed25519 key");
  }
  if (device.id !== derived) {
    return fail("DEVICE_AUTH_DEVICE_ID_MISMATCH", "device id does not match its public key");
  }
  const skew = params.skewMs ?? DEVICE_SIGNATURE_SKEW_MS;
  if (!Number.isFinite(device.signedAt) || Math.abs(params.now - device.signedAt) > skew) {
    return fail("DEVICE_AUTH_SIGNATURE_EXPIRED", "device signature expired");
  }
  if (nonce !== params.expectedNonce) {
    return fail("DEVICE_AUTH_NONCE_MISMATCH", "device nonce does not match the challenge");
  }
  const signature = decodeBase64Url(device.signature);
  if (signature?.length !== 64) {
    return fail("DEVICE_AUTH_SIGNATURE_INVALID", "device signature invalid");
  }
  for (const version of ["v3", "v2"] as const) {
    const payload = buildDeviceAuthPayload({
      version,
      deviceId: device.id,
      clientId: params.client.id,
      clientMode: params.client.mode,
      role: params.role,
      scopes: params.scopes,
      signedAtMs: device.signedAt,
      token: params.token,
      nonce,
      platform: params.client.platform,
      deviceFamily: params.client.deviceFamily,
    });
    if (verify(null, Buffer.from(payload, "utf8"), key, signature)) {
      return { ok: true, deviceId: derived, version };
    }
  }
  return fail("DEVICE_AUTH_SIGNATURE_INVALID", "device signature invalid");
}

/** An Ed25519 device identity: id, raw public key (base64url) and the private key. */
export interface DeviceIdentity {
  deviceId: string;
  publicKey: string;
  privateKey: KeyObject;
}

/** Generates a fresh Ed25519 device identity (for our own client and tests). */
export function createDeviceIdentity(): DeviceIdentity {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const jwk = publicKey.export({ format: "jwk" });
  const raw = String(jwk.x);
  return { deviceId: deriveDeviceId(raw)!, publicKey: raw, privateKey };
}

/** Inputs of {@link signDeviceProof}. */
export interface SignDeviceProofParams {
  identity: DeviceIdentity;
  client: DeviceClientInfo;
  role: string;
  scopes: readonly string[];
  /** Same rule as the server: `auth.token ?? auth.deviceToken ?? auth.bootstrapToken ?? ""`. */
  token: string;
  nonce: string;
  signedAt: number;
  /** Defaults to v3. */
  version?: DeviceAuthVersion;
}

/** Signs the v3 (or v2) string and returns the `device` block to put in `connect` params. */
export function signDeviceProof(params: SignDeviceProofParams): DeviceProof {
  const { identity } = params;
  const payload = buildDeviceAuthPayload({
    version: params.version ?? "v3",
    deviceId: identity.deviceId,
    clientId: params.client.id,
    clientMode: params.client.mode,
    role: params.role,
    scopes: params.scopes,
    signedAtMs: params.signedAt,
    token: params.token,
    nonce: params.nonce,
    platform: params.client.platform,
    deviceFamily: params.client.deviceFamily,
  });
  const signature = sign(null, Buffer.from(payload, "utf8"), identity.privateKey);
  return {
    id: identity.deviceId,
    publicKey: identity.publicKey,
    signature: signature.toString("base64url"),
    signedAt: params.signedAt,
    nonce: params.nonce,
  };
}
