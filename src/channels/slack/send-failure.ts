// What the Slack Web API client throws, as a `SendFailure`: a rate limit (HTTP 429 with
// Retry-After, or `ratelimited`) and 5xx are retryable (Slack did not take the message), so is a
// connection that never opened; Slack's own refusals (`not_in_channel`, `channel_not_found`,
// `invalid_auth`, …) are final with their code; a timeout or a reset after the request went out is
// `uncertain`, since the message may have arrived.
import type { SendFailure } from "../index.js";

/** Socket errors raised before a request reached Slack: resending cannot double a message. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Slack error codes that mean the token is not (or no longer) good: the account cannot run. */
export const SLACK_AUTH_ERRORS = new Set([
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "missing_scope",
]);

type Loose = Record<string, unknown>;

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const code = (current as Loose).code;
    if (typeof code === "string" && !code.startsWith("slack_")) return code;
    const next = current as Loose;
    current = next.original ?? next.cause;
  }
  return undefined;
}

/** Slack's `error` code of a platform error (`{ok: false, error}`), if it is one. */
export function slackErrorCode(err: unknown): string | undefined {
  if (!err || typeof err !== "object") return undefined;
  const e = err as Loose;
  if (e.code !== "slack_webapi_platform_error") return undefined;
  const data = e.data as Loose | undefined;
  return typeof data?.error === "string" ? data.error : undefined;
}

/** Classifies a thrown Web API error as a send failure value. */
export function toSlackSendFailure(err: unknown): SendFailure {
  const e = (err && typeof err === "object" ? err : {}) as Loose;
  const text = err instanceof Error ? err.message : String(err);
  switch (e.code) {
    case "slack_webapi_rate_limited_error": {
      const seconds = typeof e.retryAfter === "number" ? e.retryAfter : undefined;
      return {
        message: "slack: rate limited",
        retryable: true,
        code: "ratelimited",
        ...(seconds !== undefined ? { retryAfterMs: seconds * 1000 } : {}),
      };
    }
    case "slack_webapi_platform_error": {
      const code = slackErrorCode(err) ?? "unknown_error";
      const retryable =
        code === "ratelimited" || code === "internal_error" || code === "fatal_error";
      return { message: `slack: ${code}`, retryable, code };
    }
    case "slack_webapi_http_error": {
      const status = typeof e.statusCode === "number" ? e.statusCode : 0;
      const headers = (e.headers ?? {}) as Record<string, string>;
      const retryAfter = Number(headers["retry-after"]);
      return {
        message: `slack: HTTP ${status}`,
        retryable: status === 429 || status >= 500,
        code: `http_${status}`,
        ...(status === 429 && Number.isFinite(retryAfter)
          ? { retryAfterMs: retryAfter * 1000 }
          : {}),
      };
    }
    default: {
      const cause = causeCode(err);
      if (cause && NOT_SENT_CODES.has(cause))
        return {
          message: `slack: cannot reach the Web API (${cause})`,
          retryable: true,
          code: cause,
        };
      return {
        message: `slack: no answer to the request (${cause ?? text}); it may have arrived`,
        retryable: false,
        uncertain: true,
        code: cause ?? "request_error",
      };
    }
  }
}
