// Public surface of the gateway protocol at run time: generated schemas, the validator, error codes
// and the scope table. TypeBox sources (schema.ts, method-schemas.ts) are imported by types only.
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
export { formatIssues, type ParamsIssue, validateSchema } from "./validate.js";
