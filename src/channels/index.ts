// The channel adapter API: everything an adapter (built-in or third-party) builds on, from one
// import. The contract types, the registry an adapter is registered in, the update guard every
// platform update goes through, and the helpers for reading an account's settings. Adapters import
// from here, never from the host's internals (pipeline, delivery queue, journals).

export { substituteEnvInString } from "../config/env-substitution.js";
export { DEFAULT_ACCOUNT_ID } from "../routing/index.js";
export { defaultAccountIds, resolveAccountConfig } from "./account-config.js";
export { type ImageRequestHeaders, inlineImageUrls } from "./image-urls.js";
export type * from "./login.js";
export {
  type ChannelAdapterLoader,
  type ChannelRegistry,
  createChannelRegistry,
} from "./registry.js";
export { positiveNumber, readSecretInput, type SecretRead } from "./secret-input.js";
export type * from "./types.js";
export {
  createUpdateGuard,
  DEFAULT_MAX_SUBMIT_ATTEMPTS,
  describeError,
  type GuardedUpdate,
  type UpdateConversion,
  type UpdateGuard,
  type UpdateGuardParams,
  type UpdateVerdict,
} from "./update-guard.js";
