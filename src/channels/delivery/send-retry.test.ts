import { describe, expect, it } from "vitest";
import type { OutboundMessage, SendFailure, SendResult } from "../types.js";
import {
  attemptSend,
  DEFAULT_RETRY_POLICY,
  nextRetryDelay,
  resolveRetryPolicy,
} from "./send-retry.js";

const busy: SendFailure = { message: "busy", retryable: true };
const policy = { ...DEFAULT_RETRY_POLICY, jitter: 0 };
const delays = (failure: SendFailure, attempts: number[]) =>
  attempts.map((n) => nextRetryDelay({ policy, attempts: n, failure, random: () => 0.5 }));

describe("retry schedule", () => {
  it("backs off from 1 s doubling up to 5 min, over minutes in total, then stops", () => {
    const schedule = delays(busy, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(schedule).toEqual([
      1_000,
      2_000,
      4_000,
      8_000,
      16_000,
      32_000,
      64_000,
      128_000,
      256_000,
      undefined,
    ]);
    const total = schedule.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
    expect(total).toBeGreaterThan(5 * 60_000);
    expect(delays({ ...busy }, [9]).at(0)).toBeLessThanOrEqual(policy.maxDelayMs);
  });

  it("honours retryAfterMs exactly (above the cap too), and never retries a final or uncertain failure", () => {
    expect(delays({ ...busy, retryAfterMs: 7_000 }, [1, 5])).toEqual([7_000, 7_000]);
    expect(delays({ ...busy, retryAfterMs: 3_600_000 }, [1])).toEqual([3_600_000]);
    expect(delays({ message: "chat not found", retryable: false }, [1])).toEqual([undefined]);
    expect(delays({ message: "timed out", retryable: true, uncertain: true }, [1])).toEqual([
      undefined,
    ]);
  });

  it("spreads a backoff by the jitter, never past the cap", () => {
    const jittered = { ...DEFAULT_RETRY_POLICY, jitter: 0.1 };
    const at = (random: number, attempts = 1) =>
      nextRetryDelay({ policy: jittered, attempts, failure: busy, random: () => random });
    expect(at(0)).toBe(900);
    expect(at(0.999_999)).toBe(1_100);
    expect(at(0.999_999, 10 - 1)).toBeLessThanOrEqual(jittered.maxDelayMs);
  });

  it("reads the config's retry (OpenClaw's attempts/minDelayMs/maxDelayMs/jitter) over the base", () => {
    expect(resolveRetryPolicy(undefined, { minDelayMs: 5 })).toEqual({
      ...DEFAULT_RETRY_POLICY,
      minDelayMs: 5,
    });
    expect(
      resolveRetryPolicy({ attempts: 4, maxDelayMs: 60_000, jitter: 0, minDelayMs: "x" }, {}),
    ).toEqual({ attempts: 4, minDelayMs: 1_000, maxDelayMs: 60_000, jitter: 0 });
  });

  it("turns a throwing adapter into an uncertain failure (it may have sent)", async () => {
    const message: OutboundMessage = {
      target: { accountId: "a", peer: { kind: "direct", id: "1" } },
    };
    const throwing = {
      send: async (): Promise<SendResult> => {
        throw new Error("boom");
      },
    };
    expect(await attemptSend(throwing, message)).toMatchObject({
      ok: false,
      failure: { retryable: false, uncertain: true },
    });
  });
});
