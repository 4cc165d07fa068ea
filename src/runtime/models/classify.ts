// Classifying a provider failure (a thrown error, an HTTP status, or a pi-ai assistant message with
// stopReason "error"/"aborted") into a failover reason, and what the run does about each reason.
import { type AssistantMessage, isContextOverflow } from "@mariozechner/pi-ai";
import { errorAssistantMessage } from "./error-message.js";

/** Why a model call failed, as far as failover is concerned. */
export type FailureReason =
  | "rate_limit"
  | "overloaded"
  | "timeout"
  | "unreachable"
  | "auth"
  | "billing"
  | "context_overflow"
  | "malformed_stream"
  | "aborted"
  | "unknown";

/** What the run loop does next: another profile, the next model, or stop (never silently). */
export type FailoverAction = "rotate_profile" | "next_model" | "end_run";

const ACTIONS: Record<FailureReason, FailoverAction> = {
  rate_limit: "rotate_profile",
  auth: "rotate_profile",
  billing: "rotate_profile",
  overloaded: "next_model",
  timeout: "next_model",
  unreachable: "next_model",
  malformed_stream: "next_model",
  // Overflow is compaction's job; an abort is the caller's wish; unknown errors are not retried.
  context_overflow: "end_run",
  aborted: "end_run",
  unknown: "end_run",
};

/** rate_limit/auth/billing rotate the profile; overloaded/timeout/unreachable/malformed_stream change model. */
export function failoverAction(reason: FailureReason): FailoverAction {
  return ACTIONS[reason];
}

/** Reasons that put the failed auth profile in cooldown (or disable it). */
export function penalizesProfile(reason: FailureReason): boolean {
  return ACTIONS[reason] === "rotate_profile";
}

const PATTERNS: Array<[Exclude<FailureReason, "context_overflow" | "unknown">, RegExp]> = [
  ["aborted", /\b(?:request|operation|stream) (?:was )?aborted\b|\bAbortError\b|^aborted$/i],
  [
    "billing",
    /payment required|insufficient[_ ](?:credits?|balance|funds|quota)|credit balance|out of credits|billing|exceeded your current quota/i,
  ],
  [
    "auth",
    /unauthori[sz]ed|authentication|invalid[_ -]?(?:api[_ -]?)?key|incorrect api key|invalid x-api-key|api key (?:is )?(?:invalid|expired|revoked|not valid)|no api key|permission[_ ]denied|forbidden|invalid[_ ]token|token (?:has )?expired|oauth token/i,
  ],
  [
    "rate_limit",
    /rate[_ -]?limit|too many requests|resource[_ ]exhausted|quota exceeded|usage limit|throttl/i,
  ],
  // A host that cannot be reached (DNS, refused, TLS, reset) is named as such, never "timeout".
  [
    "unreachable",
    /ECONNREFUSED|EAI_AGAIN|ENOTFOUND|EAI_NONAME|ECONNRESET|EPIPE|socket hang up|connection error|fetch failed|network error|\bCERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_VERIFY|SELF_SIGNED_CERT|certificate/i,
  ],
  ["timeout", /timed? ?out|timeout|ETIMEDOUT|ESOCKETTIMEDOUT|deadline exceeded/i],
  [
    "overloaded",
    /overloaded|service unavailable|internal server error|bad gateway|temporarily unavailable|server error|at capacity/i,
  ],
  [
    "malformed_stream",
    /unexpected end of (?:json|stream|input|data)|malformed|invalid json|premature close|ERR_STREAM_PREMATURE_CLOSE|other side closed|^(?:TypeError: )?terminated$|stream (?:ended|closed) (?:unexpectedly|before)|incomplete (?:chunked|stream)|unexpected token .* in json|failed to parse/i,
  ],
];

/** Classifies an HTTP status; undefined for statuses that say nothing on their own (e.g. 400). */
export function classifyStatus(status: number): FailureReason | undefined {
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "billing";
  if (status === 408 || status === 504 || status === 524) return "timeout";
  if (status === 413) return "context_overflow";
  if (status === 499) return "aborted";
  if (status >= 500 && status <= 599) return "overloaded";
  return undefined;
}

/** A status written into an error text: `429 {...}`, `Error: 503 ...`, `status code 401`, `HTTP 502`. */
function statusInText(text: string): number | undefined {
  const match =
    /^\s*(?:\w*Error:\s*)?([1-5]\d\d)\b/.exec(text) ??
    /\b(?:status(?: code)?|HTTP(?:\/[\d.]+)?)[:= ]+([1-5]\d\d)\b/i.exec(text) ??
    /\b([1-5]\d\d) status code\b/i.exec(text);
  return match ? Number(match[1]) : undefined;
}

function overflowText(text: string): boolean {
  const message = errorAssistantMessage({
    error: text,
    provider: "unknown",
    model: "unknown",
    timestamp: 0,
  });
  return (
    isContextOverflow(message) ||
    /context[_ ](?:length|window)[_ ]exceeded|maximum context/i.test(text)
  );
}

/** Classifies an error text (with an optional status already known). */
export function classifyErrorText(text: string, status?: number): FailureReason {
  if (overflowText(text)) return "context_overflow";
  const code = status ?? statusInText(text);
  const byStatus = code === undefined ? undefined : classifyStatus(code);
  for (const [reason, pattern] of PATTERNS) {
    if (!pattern.test(text)) continue;
    // Specific words beat a generic status, except that a 5xx never reads as a client problem.
    if (byStatus === "overloaded" && (reason === "auth" || reason === "billing")) break;
    return reason;
  }
  return byStatus ?? "unknown";
}

function numberField(value: unknown, key: string): number | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "number" ? field : undefined;
}

function errorStatus(err: object): number | undefined {
  const response = (err as { response?: unknown }).response;
  return (
    numberField(err, "status") ?? numberField(err, "statusCode") ?? numberField(response, "status")
  );
}

function errorText(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  const cause = err.cause instanceof Error ? ` ${errorText(err.cause)}` : "";
  return (
    [err.name !== "Error" ? `${err.name}:` : "", code ?? "", err.message]
      .filter(Boolean)
      .join(" ") + cause
  );
}

function isAssistantMessage(
  value: object,
): value is Pick<AssistantMessage, "stopReason" | "errorMessage"> {
  return (value as { role?: unknown }).role === "assistant" && "stopReason" in value;
}

/**
 * Classifies a failure: a number is an HTTP status; an assistant message is read from its
 * stopReason and errorMessage; an Error from its name, code, status and message (and cause).
 */
export function classifyFailure(input: unknown): FailureReason {
  if (typeof input === "number") return classifyStatus(input) ?? "unknown";
  if (typeof input === "string") return classifyErrorText(input);
  if (typeof input !== "object" || input === null) return "unknown";
  if (isAssistantMessage(input)) {
    if (input.stopReason === "aborted") return "aborted";
    if (input.stopReason !== "error") return "unknown";
    return classifyErrorText(input.errorMessage ?? "");
  }
  if (input instanceof Error) {
    if (input.name === "AbortError" || (input as NodeJS.ErrnoException).code === "ABORT_ERR") {
      return "aborted";
    }
    if (input.name === "TimeoutError") return "timeout";
    return classifyErrorText(errorText(input), errorStatus(input));
  }
  const status = errorStatus(input);
  const message = (input as { message?: unknown }).message;
  if (typeof message === "string") return classifyErrorText(message, status);
  return status === undefined ? "unknown" : (classifyStatus(status) ?? "unknown");
}
