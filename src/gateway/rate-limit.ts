// Failed-auth limiting per source bucket. Only wrong guesses are recorded: the handshake checks the
// credential first, so a correct one always passes and is never counted, and nobody sharing the
// owner's address can lock the owner out. Once a bucket holds `max` guesses in the sliding window,
// further wrong guesses are refused (UNAVAILABLE, AUTH_RATE_LIMITED, retryAfterMs) until the oldest
// ages out. Buckets come from rateLimitBucket: all of loopback is one, IPv6 counts per /64.
import { rateLimitBucket } from "./ip-address.js";

/** Limits of {@link AuthRateLimiter}. */
export interface AuthRateLimitOptions {
  /** Wrong guesses per bucket and window before refusals start (default 10). */
  max?: number;
  /** Sliding window (default 60 000 ms). */
  windowMs?: number;
  /** Most buckets remembered; the least recently failing are forgotten first (default 10 000). */
  maxBuckets?: number;
  now?: () => number;
}

/** Tracks wrong guesses per bucket; memory is bounded by `maxBuckets` × `max` timestamps. */
export class AuthRateLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly maxBuckets: number;
  private readonly now: () => number;

  constructor(options: AuthRateLimitOptions = {}) {
    this.max = Math.max(1, options.max ?? 10);
    this.windowMs = options.windowMs ?? 60_000;
    this.maxBuckets = Math.max(1, options.maxBuckets ?? 10_000);
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds until the bucket of `address` is under the limit again, or 0 when it is now. */
  retryAfterMs(address: string): number {
    const recent = this.recent(rateLimitBucket(address));
    if (recent.length < this.max) return 0;
    return Math.max(1, recent[recent.length - this.max]! + this.windowMs - this.now());
  }

  /** Records one wrong guess from `address` (only the newest `max` are kept per bucket). */
  fail(address: string): void {
    const bucket = rateLimitBucket(address);
    const recent = this.recent(bucket);
    recent.push(this.now());
    this.failures.delete(bucket);
    this.failures.set(bucket, recent.slice(-this.max));
    while (this.failures.size > this.maxBuckets) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  /** Buckets tracked now (at most `maxBuckets`). */
  get size(): number {
    return this.failures.size;
  }

  private recent(bucket: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(bucket) ?? []).filter((at) => at > cutoff);
    if (list.length === 0) this.failures.delete(bucket);
    return list;
  }
}
