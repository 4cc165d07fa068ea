// The failed-auth limiter with a fake clock: sliding window, shared loopback bucket, IPv6 /64
// buckets, bounded memory.
import { describe, expect, it } from "vitest";
import { AuthRateLimiter } from "./failed-auth-limit.js";

function setup(options: { max?: number; maxBuckets?: number } = {}) {
  const clock = { t: 1_000_000 };
  const limiter = new AuthRateLimiter({ windowMs: 60_000, ...options, now: () => clock.t });
  return { clock, limiter };
}

describe("AuthRateLimiter", () => {
  it("limits a bucket after max guesses until the window slides past them", () => {
    const { clock, limiter } = setup({ max: 3 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterMs("203.0.113.5")).toBe(0);
      limiter.fail("203.0.113.5");
      clock.t += 1000;
    }
    expect(limiter.retryAfterMs("203.0.113.5")).toBe(57_000);
    expect(limiter.retryAfterMs("203.0.113.6")).toBe(0);
    clock.t += 57_000;
    expect(limiter.retryAfterMs("203.0.113.5")).toBe(0);
  });

  it("counts every loopback address as one bucket and IPv6 by /64", () => {
    const { limiter } = setup({ max: 3 });
    limiter.fail("127.0.0.2");
    limiter.fail("::1");
    limiter.fail("::ffff:127.0.0.77");
    expect(limiter.retryAfterMs("127.0.0.1")).toBeGreaterThan(0);
    for (const host of ["1", "2", "3"]) limiter.fail(`2001:db8:0:1::${host}`);
    expect(limiter.retryAfterMs("2001:db8:0:1:abcd::9")).toBeGreaterThan(0);
    expect(limiter.retryAfterMs("2001:db8:0:2::1")).toBe(0);
  });

  it("keeps at most maxBuckets buckets and max timestamps per bucket", () => {
    const { clock, limiter } = setup({ max: 2, maxBuckets: 100 });
    for (let i = 0; i < 1000; i++) limiter.fail(`198.51.${i >> 8}.${i & 0xff}`);
    expect(limiter.size).toBe(100);
    // The newest buckets are the ones kept.
    expect(limiter.retryAfterMs("198.51.3.231")).toBe(0);
    limiter.fail("198.51.3.231");
    expect(limiter.retryAfterMs("198.51.3.231")).toBeGreaterThan(0);
    for (let i = 0; i < 50; i++) {
      limiter.fail("192.0.2.1");
      clock.t += 10;
    }
    // Only the newest 2 are kept: the bucket frees up a window after the second newest guess.
    expect(limiter.retryAfterMs("192.0.2.1")).toBe(60_000 - 20);
  });

  it("follows gateway.auth.rateLimit, read on every check: maxAttempts, windowMs, lockoutMs, exemptLoopback", () => {
    const clock = { t: 1_000_000 };
    let settings: Record<string, unknown> = {
      maxAttempts: 2,
      windowMs: 10_000,
      lockoutMs: 120_000,
    };
    const limiter = new AuthRateLimiter({ now: () => clock.t, settings: () => settings });
    limiter.fail("203.0.113.9");
    expect(limiter.retryAfterMs("203.0.113.9")).toBe(0);
    limiter.fail("203.0.113.9");
    // Locked out for lockoutMs, well past the 10 s window.
    clock.t += 30_000;
    expect(limiter.retryAfterMs("203.0.113.9")).toBe(90_000);
    clock.t += 90_000;
    expect(limiter.retryAfterMs("203.0.113.9")).toBe(0);
    // exemptLoopback: loopback guesses are neither counted nor refused; others still are.
    settings = { maxAttempts: 1, exemptLoopback: true };
    limiter.fail("127.0.0.1");
    expect(limiter.retryAfterMs("127.0.0.1")).toBe(0);
    limiter.fail("198.51.100.1");
    expect(limiter.retryAfterMs("198.51.100.1")).toBeGreaterThan(0);
  });
});
