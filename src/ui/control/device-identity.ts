// The browser's device identity: a WebCrypto Ed25519 key pair created once and kept in IndexedDB
// (the private key non-extractable: script can sign with it but never read it), its id the hex
// SHA-256 of the raw public key, and the connect proof the gateway verifies (devices/proof.ts):
// the same v3 string `v3|id|client|mode|role|scopes|signedAt|token|nonce|platform|family`,
// an Ed25519 signature and the raw public key, both base64url.
import type { DeviceBlock, DeviceSigner, DeviceSignInput } from "../../client/types.js";

const DB_NAME = "pincer-control-ui";
const STORE = "device";
const KEY = "identity";

/** A loaded identity: the key pair, its raw public key (base64url) and device id. */
export interface BrowserDeviceIdentity {
  deviceId: string;
  publicKey: string;
  keys: CryptoKeyPair;
}

/** base64url without padding of raw bytes. */
export function base64Url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Lowercase trim, as the gateway normalises platform and deviceFamily in the v3 string. */
function normalized(value: string | undefined): string {
  return (value ?? "").trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** The v3 string the device signs (must match devices/proof.ts buildDeviceAuthPayload). */
export function deviceAuthPayload(params: {
  deviceId: string;
  input: DeviceSignInput;
  signedAt: number;
}): string {
  const { deviceId, input, signedAt } = params;
  return [
    "v3",
    deviceId,
    input.client.id,
    input.client.mode,
    input.role,
    input.scopes.join(","),
    String(signedAt),
    input.token,
    input.nonce,
    normalized(input.client.platform),
    normalized(input.client.deviceFamily),
  ].join("|");
}

/** The identity of a key pair (its id and encoded public key). */
export async function identityOf(
  keys: CryptoKeyPair,
  subtle: SubtleCrypto,
): Promise<BrowserDeviceIdentity> {
  const raw = new Uint8Array(await subtle.exportKey("raw", keys.publicKey));
  const digest = new Uint8Array(await subtle.digest("SHA-256", raw));
  return { deviceId: hex(digest), publicKey: base64Url(raw), keys };
}

/** A signer for the gateway client: signs the challenge with the identity's private key. */
export function browserDeviceSigner(params: {
  identity: BrowserDeviceIdentity;
  subtle: SubtleCrypto;
  now: () => number;
}): DeviceSigner {
  const { identity, subtle } = params;
  return async (input): Promise<DeviceBlock> => {
    const signedAt = params.now();
    const payload = deviceAuthPayload({ deviceId: identity.deviceId, input, signedAt });
    const signature = await subtle.sign(
      { name: "Ed25519" },
      identity.keys.privateKey,
      new TextEncoder().encode(payload),
    );
    return {
      id: identity.deviceId,
      publicKey: identity.publicKey,
      signature: base64Url(new Uint8Array(signature)),
      signedAt,
      nonce: input.nonce,
    };
  };
}

function requestOf<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error("IndexedDB request failed"));
  });
}

function openDb(factory: IDBFactory): Promise<IDBDatabase> {
  const open = factory.open(DB_NAME, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return requestOf(open);
}

/**
 * The browser's identity, created on first use and kept in IndexedDB. Undefined where WebCrypto's
 * Ed25519 or IndexedDB is missing (an insecure http:// origin other than localhost): the UI then
 * connects with the gateway token alone, as a client without a device.
 */
export async function loadDeviceIdentity(env: {
  indexedDB: IDBFactory | undefined;
  subtle: SubtleCrypto | undefined;
}): Promise<BrowserDeviceIdentity | undefined> {
  const { indexedDB, subtle } = env;
  if (!indexedDB || !subtle) return undefined;
  try {
    const db = await openDb(indexedDB);
    try {
      const read = db.transaction(STORE, "readonly").objectStore(STORE).get(KEY);
      const stored = (await requestOf(read)) as CryptoKeyPair | undefined;
      if (stored?.privateKey && stored.publicKey) return await identityOf(stored, subtle);
      const keys = (await subtle.generateKey({ name: "Ed25519" }, false, [
        "sign",
        "verify",
      ])) as CryptoKeyPair;
      await requestOf(db.transaction(STORE, "readwrite").objectStore(STORE).put(keys, KEY));
      return await identityOf(keys, subtle);
    } finally {
      db.close();
    }
  } catch (err) {
    console.warn("control ui: no device identity (WebCrypto Ed25519 / IndexedDB failed)", err);
    return undefined;
  }
}
