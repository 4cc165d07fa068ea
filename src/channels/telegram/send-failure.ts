// Turns what grammY throws into a `SendFailure`: rate limits and 5xx are retryable (Telegram did not
// take the message), so is a connection that never opened; 400/403 are final with Telegram's own
// description; a timeout after the request went out is final too, since the message may have arrived.
import { GrammyError, HttpError } from "grammy";
import { connectionCauseOf } from "../../lib/connection-cause.js";
import type { SendFailure } from "../index.js";

/** Socket errors raised before a request reached the server: resending cannot double a message. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The host named in a fetch error's text (`request to https://host/... failed`), else Telegram's. */
function hostIn(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const match = /\bhttps?:\/\/([^/:\s]+)/.exec(text);
  return match?.[1] ?? "api.telegram.org";
}

/** True when Telegram rejected the HTML (bad or unbalanced tags), so plain text may still go through. */
export function isParseEntitiesError(err: unknown): boolean {
  return (
    err instanceof GrammyError &&
    err.error_code === 400 &&
    /can't parse entities|unsupported start tag|can't find end tag|unclosed/i.test(err.description)
  );
}

/** True for errors that mean the bot token is wrong (polling cannot recover by retrying). */
export function isUnauthorizedError(err: unknown): boolean {
  return err instanceof GrammyError && (err.error_code === 401 || err.error_code === 404);
}

/** Classifies a thrown Bot API error as a send failure value. */
export function toSendFailure(err: unknown): SendFailure {
  if (err instanceof GrammyError) {
    const code = `telegram_${err.error_code}`;
    if (err.error_code === 429) {
      const seconds = err.parameters.retry_after;
      const failure: SendFailure = { message: err.description, retryable: true, code };
      if (typeof seconds === "number") failure.retryAfterMs = seconds * 1000;
      return failure;
    }
    return { message: err.description, retryable: err.error_code >= 500, code };
  }
  if (err instanceof HttpError) {
    const inner = err.error;
    const socketCode = causeCode(inner);
    // A DNS, refused or TLS failure is named with its host; nothing reached Telegram, so it may retry.
    const cause = connectionCauseOf(inner, hostIn(inner));
    if (cause && cause.kind !== "reset" && cause.kind !== "timeout") {
      return {
        message: `Telegram unreachable: ${cause.detail}`,
        retryable: true,
        code: "connection_failed",
      };
    }
    if (socketCode && NOT_SENT_CODES.has(socketCode)) {
      return {
        message: `Telegram unreachable: ${err.message} (${socketCode})`,
        retryable: true,
        code: "connection_failed",
      };
    }
    const detail = inner instanceof Error ? inner.message : String(inner);
    if (/timed out/i.test(detail)) {
      return {
        message: `${detail}; the message may have been delivered`,
        retryable: false,
        uncertain: true,
        code: "timeout",
      };
    }
    return {
      message: `${err.message}: ${detail}`,
      retryable: false,
      uncertain: true,
      code: socketCode ?? "network",
    };
  }
  return {
    message: err instanceof Error ? err.message : String(err),
    retryable: false,
    code: "internal",
  };
}
