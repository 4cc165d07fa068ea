// Public surface of device identity and pairing: proofs, the pairing store and the connect authority.
export {
  type AccessUpgrade,
  accessUpgrade,
  approvedRoles,
  scopeCovered,
} from "./access.js";
export {
  createDeviceAuthority,
  type DeviceAuthority,
  type DeviceAuthorityOptions,
  MAX_REMEMBERED_NONCES,
} from "./authority.js";
export { createLiveDevices, type DeviceConnection, type LiveDevices } from "./live-devices.js";
export { pgDeviceDocuments, pgDeviceDocumentsFor } from "./pg-documents.js";
export {
  buildDeviceAuthPayload,
  createDeviceIdentity,
  DEVICE_SIGNATURE_SKEW_MS,
  type DeviceAuthPayloadParams,
  type DeviceAuthVersion,
  type DeviceClientInfo,
  type DeviceIdentity,
  type DeviceProof,
  type DeviceProofErrorCode,
  type DeviceProofResult,
  decodeBase64Url,
  deriveDeviceId,
  normalizeDeviceMetadata,
  type SignDeviceProofParams,
  signatureToken,
  signDeviceProof,
  type VerifyDeviceProofParams,
  verifyDeviceProof,
} from "./proof.js";
export {
  DEFAULT_MAX_PENDING,
  DEFAULT_PENDING_TTL_MS,
  type DeviceStore,
  type DirectPairingInput,
  hashDeviceToken,
  MAX_ACTIVE_TOKENS_PER_DEVICE,
  openDeviceStore,
  type PairingRequestInput,
} from "./store.js";
export type {
  ApprovedAccess,
  DeviceClock,
  DeviceDocuments,
  DeviceStoreOptions,
  DeviceTokenRecord,
  IssuedDeviceToken,
  PairedDevice,
  PairingMetadata,
  PairingReason,
  PendingPairingRequest,
  RandomBytes,
  VerifyConnectError,
  VerifyConnectInput,
  VerifyConnectResult,
} from "./types.js";
export { type PairedView, type PendingView, pairedView, pendingView } from "./views.js";
