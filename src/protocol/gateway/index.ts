// Public surface of the gateway protocol at run time: generated schemas, the validator, error codes
// and scope names. TypeBox sources (schema.ts, method-schemas.ts) are imported by types only.
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
  MethodName,
  MethodParamsByName,
  MethodResultsByName,
  SendParams,
  SessionsPatchParams,
  SystemEventParams,
} from "./method-schemas.js";
export {
  GATEWAY_RESULT_SCHEMAS,
  GATEWAY_SCHEMAS,
  type GatewayResultName,
  type GatewaySchemaName,
} from "./schema.generated.js";
export type { ConnectParams, ErrorShape, RequestFrame } from "./schema.js";
export { hasScope, type MethodScope } from "./scopes.js";
export { formatIssues, type ParamsIssue, validateSchema } from "./validate.js";
