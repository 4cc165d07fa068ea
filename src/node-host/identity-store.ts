// The node host's own device identity (Ed25519 key pair) and the device token the gateway issued it,
// in `<stateDir>/node-host/device.json` (0600, written atomically). Created on first run; a file that
// does not hold a usable identity is an error naming it (never silently replaced: the pairing is
// bound to that key).
import { createPrivateKey, type KeyObject } from "node:crypto";
import { join } from "node:path";
import {
  createDeviceIdentity,
  type DeviceIdentity,
  deriveDeviceId,
} from "../gateway/devices/index.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { readTextIfExists } from "../lib/read-if-exists.js";

/** The stored identity and, once paired, its device token. */
export interface NodeIdentity {
  identity: DeviceIdentity;
  deviceToken?: string;
}

interface StoredIdentity {
  version: 1;
  deviceId: string;
  publicKey: string;
  privateKeyPem: string;
  deviceToken?: string;
}

/** Where the identity lives in a state dir. */
export function nodeIdentityPath(stateDir: string): string {
  return join(stateDir, "node-host", "device.json");
}

function save(path: string, identity: DeviceIdentity, deviceToken: string | undefined): void {
  const stored: StoredIdentity = {
    version: 1,
    deviceId: identity.deviceId,
    publicKey: identity.publicKey,
    privateKeyPem: identity.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    ...(deviceToken ? { deviceToken } : {}),
  };
  writeFileAtomic(path, `${JSON.stringify(stored, null, 2)}\n`);
}

/** Loads the identity, creating (and saving) a new one when there is none; throws on a bad file. */
export function loadNodeIdentity(stateDir: string): NodeIdentity {
  const path = nodeIdentityPath(stateDir);
  const text = readTextIfExists(path);
  if (text === undefined) {
    const identity = createDeviceIdentity();
    save(path, identity, undefined);
    return { identity };
  }
  let stored: StoredIdentity;
  let privateKey: KeyObject;
  try {
    stored = JSON.parse(text) as StoredIdentity;
    privateKey = createPrivateKey(stored.privateKeyPem);
  } catch (err) {
    throw new Error(
      `${path} does not hold a node identity (${(err as Error).message}); move it away to start afresh (the node must then be paired again)`,
    );
  }
  if (deriveDeviceId(stored.publicKey) !== stored.deviceId) {
    throw new Error(
      `${path}: deviceId does not match publicKey; move the file away to start afresh`,
    );
  }
  const identity = { deviceId: stored.deviceId, publicKey: stored.publicKey, privateKey };
  return { identity, ...(stored.deviceToken ? { deviceToken: stored.deviceToken } : {}) };
}

/** Saves (or, with undefined, forgets) the device token next to the identity. */
export function saveNodeDeviceToken(
  stateDir: string,
  node: NodeIdentity,
  deviceToken: string | undefined,
): NodeIdentity {
  save(nodeIdentityPath(stateDir), node.identity, deviceToken);
  return { identity: node.identity, ...(deviceToken ? { deviceToken } : {}) };
}
