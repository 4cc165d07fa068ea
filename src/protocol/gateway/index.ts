// Public surface of the gateway protocol at run time: generated schemas, error codes and the scope
// table (validating against the schemas is `gateway/ws/schema-issues.ts`). TypeBox sources (schema.ts, method-schemas.ts) are imported by types only.

export type { AgentsFileEntry } from "./agents-files.js";
export { GATEWAY_CAPS, TEXT_DELTAS_CAP } from "./caps.js";
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
export {
  SESSION_QUEUE_MODES,
  SESSION_REASONING_LEVELS,
  SESSION_THINKING_LEVELS,
  SESSION_VERBOSE_LEVELS,
} from "./session-levels.js";
export type { SessionsListParams, SessionsSortKey } from "./sessions-list.js";
