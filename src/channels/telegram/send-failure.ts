// Turns what grammY throws into a `SendFailure`: rate limits and 5xx are retryable (Telegram did not
// take the message), so is a connection that never opened; 400/403 are final with Telegram's own
// description; a timeout after the request went out is final too, since the message may have arrived.
import { GrammyError, HttpError } from "grammy";
import type { SendFailure } from "../types.js";

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
    if (socketCode && NOT_SENT_CODES.has(socketCode)) {
      return {
        message: `${err.message} (${socketCode})`,
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
