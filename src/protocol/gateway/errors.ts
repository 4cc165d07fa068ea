// Error codes of the gateway protocol and helpers that build error values (never thrown).

/** Top-level error codes (`error.code`). */
export const ErrorCodes = {
  INVALID_REQUEST: "INVALID_REQUEST",
  FORBIDDEN: "FORBIDDEN",
  NOT_PAIRED: "NOT_PAIRED",
  UNAVAILABLE: "UNAVAILABLE",
  APPROVAL_NOT_FOUND: "APPROVAL_NOT_FOUND",
} as const;
/** One of {@link ErrorCodes}. */
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Detail codes (`error.details.code`). */
export const DetailCodes = {
  MISSING_SCOPE: "MISSING_SCOPE",
  AUTH_TOKEN_MISMATCH: "AUTH_TOKEN_MISMATCH",
  AUTH_TOKEN_MISSING: "AUTH_TOKEN_MISSING",
  AUTH_PASSWORD_MISMATCH: "AUTH_PASSWORD_MISMATCH",
  AUTH_RATE_LIMITED: "AUTH_RATE_LIMITED",
  PROTOCOL_MISMATCH: "PROTOCOL_MISMATCH",
  DEVICE_IDENTITY_REQUIRED: "DEVICE_IDENTITY_REQUIRED",
  UNKNOWN_AGENT_ID: "UNKNOWN_AGENT_ID",
  UNKNOWN_METHOD: "UNKNOWN_METHOD",
  CONFIG_INVALID: "CONFIG_INVALID",
  CONFIG_BASE_HASH_MISMATCH: "CONFIG_BASE_HASH_MISMATCH",
  CONFIG_BASE_HASH_REQUIRED: "CONFIG_BASE_HASH_REQUIRED",
  CONFIG_TOO_DEEP: "CONFIG_TOO_DEEP",
  CONFIG_LOCKED: "CONFIG_LOCKED",
  SESSION_NOT_FOUND: "SESSION_NOT_FOUND",
} as const;

/** An error as carried by a response frame. */
export interface GatewayErrorShape {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  retryable?: boolean;
  retryAfterMs?: number;
}

/** Builds an error value; `extra` adds details, retryable or retryAfterMs. */
export function gatewayError(
  code: ErrorCode,
  message: string,
  extra: Omit<GatewayErrorShape, "code" | "message"> = {},
): GatewayErrorShape {
  return { code, message, ...extra };
}

/** OpenClaw's answer to a method the client's scopes do not allow. */
export function missingScopeError(scope: string): GatewayErrorShape {
  return gatewayError(ErrorCodes.FORBIDDEN, `missing scope: ${scope}`, {
    details: { code: DetailCodes.MISSING_SCOPE, missingScope: scope, requiredScopes: [scope] },
  });
}
