// Public surface of the gateway protocol at run time: generated schemas, error codes and the scope
// table (validating against the schemas is `gateway/schema-issues.ts`). TypeBox sources (schema.ts, method-schemas.ts) are imported by types only.
export {
  DetailCodes,
  type ErrorCode,
  ErrorCodes,
  type GatewayErrorShape,
  gatewayError,
  missingScopeError,
} from "./errors.js";
export type {
  AgentParams,
  ChatSendParams,
  HelloOk,
  SendParams,
  SessionsPatchParams,
  SystemEventParams,
} from "./method-schemas.js";
export { GATEWAY_SCHEMAS, type GatewaySchemaName } from "./schema.generated.js";
export type { ConnectParams, ErrorShape, RequestFrame } from "./schema.js";
export { hasScope, METHOD_SCOPES, type MethodScope, requiredScope } from "./scopes.js";
