// Graph API failures as send failures a person can act on: an expired or invalid token (190) and
// the 24-hour customer service window (131047: only a template may be sent) say so; rate limits
// (130429, 80007, 131056, 4) and transient errors and 5xx are retryable (Meta did not take the
// message), waiting out Retry-After when given; a request that never reached Meta may retry; a
// timeout or a connection dropped after the request went out is uncertain (it may have arrived).
import { connectionCauseOf } from "../../../lib/connection-cause.js";
import type { SendFailure } from "../../index.js";

/** Wait after a rate limit that gave no Retry-After. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
/** WhatsApp's per-recipient pacing (131056): a few seconds between messages to one user. */
const PAIR_RATE_WAIT_MS = 6_000;
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);

/** The `error` object of a Graph error response. */
export interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_data?: { details?: string };
  error_user_msg?: string;
}

function graphErrorOf(body: unknown): GraphErrorBody | undefined {
  if (!body || typeof body !== "object") return undefined;
  const error = (body as { error?: unknown }).error;
  return error && typeof error === "object" ? (error as GraphErrorBody) : undefined;
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** The failure of a Graph response that was not OK (`status` ≥ 400, or an error body). */
export function graphFailure(params: {
  status: number;
  body: unknown;
  retryAfter: string | null;
}): SendFailure {
  const error = graphErrorOf(params.body);
  const code = error?.code;
  const detail = error?.error_data?.details ?? error?.message ?? `HTTP ${params.status}`;
  const tag = code !== undefined ? `Graph error ${code}` : `HTTP ${params.status}`;
  const failureCode = code !== undefined ? `graph_${code}` : `http_${params.status}`;
  if (code === 190 || (code === undefined && params.status === 401))
    return {
      message: `WhatsApp Cloud API: access token expired or invalid (${tag}): ${detail}`,
      retryable: false,
      code: failureCode,
    };
  if (code === 131047)
    return {
      message: `WhatsApp Cloud API: more than 24 hours since the customer last wrote, so only a template message can reach them (${tag})`,
      retryable: false,
      code: failureCode,
    };
  if ((code !== undefined && RATE_LIMIT_CODES.has(code)) || params.status === 429) {
    const wait =
      retryAfterMs(params.retryAfter) ??
      (code === 131056 ? PAIR_RATE_WAIT_MS : DEFAULT_RATE_LIMIT_WAIT_MS);
    return {
      message: `WhatsApp Cloud API rate limit (${tag}): ${detail}`,
      retryable: true,
      retryAfterMs: wait,
      code: failureCode,
    };
  }
  const transient = error?.is_transient === true || params.status >= 500;
  const failure: SendFailure = {
    message: `WhatsApp Cloud API refused the request (${tag}): ${detail}`,
    retryable: transient,
    code: failureCode,
  };
  const wait = retryAfterMs(params.retryAfter);
  if (transient && wait !== undefined) failure.retryAfterMs = wait;
  return failure;
}

/** The failure of a request that threw (no response): before sending it may retry, else uncertain. */
export function requestFailure(err: unknown, host: string): SendFailure {
  const name = err instanceof Error ? err.name : "";
  if (name === "TimeoutError")
    return {
      message: `WhatsApp Cloud API did not answer in time (${host}); the message may have been delivered`,
      retryable: false,
      uncertain: true,
      code: "timeout",
    };
  const cause = connectionCauseOf(err, host);
  if (cause && cause.kind !== "reset" && cause.kind !== "timeout")
    return {
      message: `WhatsApp Cloud API unreachable: ${cause.detail}`,
      retryable: true,
      code: "connection_failed",
    };
  const text = err instanceof Error ? err.message : String(err);
  return {
    message: `WhatsApp Cloud API request failed after it was sent (${text}); the message may have been delivered`,
    retryable: false,
    uncertain: true,
    code: cause?.code ?? "network",
  };
}
