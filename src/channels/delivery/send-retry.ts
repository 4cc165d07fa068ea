// When a failed send is tried again. Only a failure that says the message certainly did not arrive
// (`retryable`: rate limit, 5xx, connection refused, account restarting) is retried, after exactly
// the platform's `retryAfterMs` when it gives one, else an exponential backoff from `minDelayMs`
// capped at `maxDelayMs` (with jitter), until `attempts` sends were made. A failure with an unknown
// outcome (timeout, connection dropped after the request, an adapter that throws) is never retried.
import type { ChannelAccountRuntime, OutboundMessage, SendFailure, SendResult } from "../types.js";

/** Retry policy of one account (`channels.<id>.retry`, OpenClaw's shape). */
export interface RetryPolicy {
  /** Total sends of one message, the first included (default 10). */
  attempts: number;
  /** First backoff (default 1 s), doubled on each retry. */
  minDelayMs: number;
  /** Longest backoff (default 5 min); a platform's own `retry_after` is honoured even above it. */
  maxDelayMs: number;
  /** Random spread of a backoff, as a fraction (default 0.1 = ±10 %); never applied to `retry_after`. */
  jitter: number;
}

/** Default policy: 10 sends spread over about 8.5 minutes (1 s, 2 s, 4 s … capped at 5 min). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  attempts: 10,
  minDelayMs: 1_000,
  maxDelayMs: 300_000,
  jitter: 0.1,
});

function pick(value: unknown, min: number): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= min ? value : undefined;
}

/** The policy of an account: defaults, then `base` (gateway options), then the config's `retry`. */
export function resolveRetryPolicy(
  configured: unknown,
  base: Partial<RetryPolicy> = {},
): RetryPolicy {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...base };
  if (!configured || typeof configured !== "object") return policy;
  const raw = configured as Record<string, unknown>;
  const attempts = pick(raw.attempts, 1);
  const minDelayMs = pick(raw.minDelayMs, 0);
  const maxDelayMs = pick(raw.maxDelayMs, 0);
  const jitter = pick(raw.jitter, 0);
  if (attempts !== undefined) policy.attempts = Math.floor(attempts);
  if (minDelayMs !== undefined) policy.minDelayMs = minDelayMs;
  if (maxDelayMs !== undefined) policy.maxDelayMs = maxDelayMs;
  if (jitter !== undefined) policy.jitter = Math.min(jitter, 1);
  return policy;
}

/** Inputs of {@link nextRetryDelay}. */
export interface NextRetryParams {
  policy: RetryPolicy;
  /** Sends made so far (the failed one included). */
  attempts: number;
  failure: SendFailure;
  /** [0, 1) source for the jitter. */
  random: () => number;
}

/** Milliseconds until the next send, or undefined when the failure is final (or attempts ran out). */
export function nextRetryDelay(params: NextRetryParams): number | undefined {
  const { policy, failure } = params;
  if (!failure.retryable || failure.uncertain) return undefined;
  if (params.attempts >= policy.attempts) return undefined;
  if (typeof failure.retryAfterMs === "number" && failure.retryAfterMs >= 0)
    return failure.retryAfterMs;
  const backoff = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** (params.attempts - 1));
  const spread = backoff * policy.jitter * (2 * params.random() - 1);
  return Math.max(0, Math.round(Math.min(policy.maxDelayMs, backoff + spread)));
}

/** One send through the adapter; a throw (a broken adapter: the message may have left) becomes an
 *  uncertain failure value. */
export async function attemptSend(
  runtime: Pick<ChannelAccountRuntime, "send">,
  message: OutboundMessage,
): Promise<SendResult> {
  try {
    return await runtime.send(message);
  } catch (err) {
    const failure: SendFailure = {
      message: `adapter threw: ${String(err)}`,
      retryable: false,
      uncertain: true,
      code: "adapter_threw",
    };
    return { ok: false, failure };
  }
}
