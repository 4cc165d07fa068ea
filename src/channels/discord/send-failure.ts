// Turns what discord.js's REST client throws into a `SendFailure`, by the errors' fields (no import of
// discord.js): a 429 (thrown at once: the client is built with `rejectOnRateLimit`) is retryable after
// Discord's `retry_after`; 5xx and a connection that never opened are retryable; any other 4xx is
// final with Discord's message; a timeout or a dropped connection after the request went out is
// `uncertain`, since the message may have arrived.
import { connectionCauseOf } from "../../lib/connection-cause.js";
import type { SendFailure } from "../index.js";

type Fields = Record<string, unknown>;

function fieldsOf(err: unknown): Fields {
  return typeof err === "object" && err !== null ? (err as Fields) : {};
}

function hostOf(err: unknown, apiRoot: string): string {
  const url = fieldsOf(err).url;
  try {
    return new URL(typeof url === "string" ? url : apiRoot).hostname;
  } catch {
    return "discord.com";
  }
}

/** True when Discord refused the credentials (401): the token is wrong or was reset. */
export function isDiscordUnauthorized(err: unknown): boolean {
  return fieldsOf(err).status === 401;
}

/** Classifies a thrown REST error as a send failure value. */
export function toDiscordSendFailure(err: unknown, apiRoot: string): SendFailure {
  const fields = fieldsOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (fields.name === "RateLimitError" || typeof fields.retryAfter === "number") {
    const retryAfter = typeof fields.retryAfter === "number" ? fields.retryAfter : undefined;
    const wait = retryAfter !== undefined && retryAfter > 0 ? retryAfter : fields.timeToReset;
    const route = typeof fields.route === "string" ? ` on ${fields.route}` : "";
    const failure: SendFailure = {
      message: `Discord rate limit${route}${message ? `: ${message}` : ""}`,
      retryable: true,
      code: "discord_429",
    };
    if (typeof wait === "number" && wait > 0) failure.retryAfterMs = Math.ceil(wait);
    return failure;
  }
  if (typeof fields.status === "number") {
    const status = fields.status;
    const code = typeof fields.code === "number" && fields.code > 0 ? fields.code : status;
    return {
      message: `Discord answered ${status}: ${message}`,
      retryable: status >= 500,
      code: `discord_${code}`,
    };
  }
  const cause = connectionCauseOf(err, hostOf(err, apiRoot));
  if (cause && cause.kind !== "reset" && cause.kind !== "timeout") {
    return {
      message: `Discord unreachable: ${cause.detail}`,
      retryable: true,
      code: "connection_failed",
    };
  }
  if (fields.name === "AbortError" || cause?.kind === "timeout") {
    return {
      message: "Discord did not answer in time; the message may have been delivered",
      retryable: false,
      uncertain: true,
      code: "timeout",
    };
  }
  if (cause?.kind === "reset" || /fetch failed|socket|other side closed/i.test(message)) {
    return {
      message: `connection lost mid-request (${message}); the message may have been delivered`,
      retryable: false,
      uncertain: true,
      code: cause?.code ?? "network",
    };
  }
  return { message, retryable: false, code: "internal" };
}
