// Sending one outbound message with retries: a retryable failure (the message certainly did not
// arrive) is retried with exponential backoff, honouring `retryAfterMs`; a non-retryable one (or an
// adapter that throws: outcome unknown) is never retried, so nothing is sent twice.
import type { ChannelAccountRuntime, OutboundMessage, SendFailure, SendResult } from "../types.js";

/** Retry policy. */
export interface RetryPolicy {
  /** Total attempts, first included (default 3). */
  maxAttempts: number;
  /** First backoff (default 500 ms), doubled each retry, capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Default retry policy. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
});

/** Outcome of {@link sendWithRetry}: the last result and how many attempts it took. */
export interface SendOutcome {
  result: SendResult;
  attempts: number;
}

/** Inputs of {@link sendWithRetry}. */
export interface SendWithRetryParams {
  runtime: Pick<ChannelAccountRuntime, "send">;
  message: OutboundMessage;
  policy?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function attempt(params: SendWithRetryParams): Promise<SendResult> {
  try {
    return await params.runtime.send(params.message);
  } catch (err) {
    // An adapter must not throw; if it does, the message may or may not have left: do not retry.
    const failure: SendFailure = { message: `adapter threw: ${String(err)}`, retryable: false };
    return { ok: false, failure };
  }
}

/** Sends with retries per the policy. */
export async function sendWithRetry(params: SendWithRetryParams): Promise<SendOutcome> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...params.policy };
  const sleep = params.sleep ?? defaultSleep;
  for (let attempts = 1; ; attempts++) {
    const result = await attempt(params);
    if (result.ok || !result.failure.retryable || attempts >= policy.maxAttempts) {
      return { result, attempts };
    }
    const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempts - 1));
    await sleep(Math.max(backoff, result.failure.retryAfterMs ?? 0));
  }
}
