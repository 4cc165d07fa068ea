// Public surface of the gateway daemon: startGateway and the types callers and tests need.

export { type LogFields, type Logger, silentLogger } from "../lib/logger.js";
export {
  assertAuthForHost,
  GatewayAuthConfigError,
  type GatewayAuthResolution,
  resolveGatewayAuth,
  resolveSharedAuth,
} from "./auth/shared-secret.js";
export type { GatewayCore } from "./core.js";
export type {
  ClientInfo,
  GatewayMethod,
  MethodCall,
  MethodResult,
} from "./methods/method.js";
export type { MethodDeps } from "./methods/method-deps.js";
export { isLoopbackAddress, type PresenceEntry, PresenceTable } from "./presence.js";
export {
  GatewayConfigError,
  type GatewayHandle,
  type StartGatewayOptions,
  startGateway,
} from "./server.js";
export {
  type DeviceAuthority,
  type DeviceConnectInput,
  type HandshakeAccepted,
  MAX_BUFFERED_BYTES,
  MAX_PAYLOAD_BYTES,
  MAX_PREAUTH_PAYLOAD_BYTES,
  negotiateProtocol,
  type SharedAuth,
  SUPPORTED_PROTOCOLS,
  TICK_INTERVAL_MS,
} from "./ws/handshake.js";
export { GATEWAY_EVENTS } from "./ws/hello.js";
