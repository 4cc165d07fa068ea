// Failed-auth limiting per source bucket. Only wrong guesses are recorded: the handshake checks the
// credential first, so a correct one always passes and is never counted, and nobody sharing the
// owner's address can lock the owner out. Once a bucket holds `max` guesses in the sliding window,
// further wrong guesses are refused (UNAVAILABLE, AUTH_RATE_LIMITED, retryAfterMs) until the oldest
// ages out. Buckets come from rateLimitBucket: all of loopback is one, IPv6 counts per /64.
import type { GatewayAuthRateLimit } from "../../protocol/config/index.js";
import { rateLimitBucket } from "../net/ip-address.js";

/** Limits of {@link AuthRateLimiter}. */
export interface AuthRateLimitOptions {
  /** Wrong guesses per bucket and window before refusals start (default 10). */
  max?: number;
  /** Sliding window (default 60 000 ms). */
  windowMs?: number;
  /** Most buckets remembered; the least recently failing are forgotten first (default 10 000). */
  maxBuckets?: number;
  now?: () => number;
  /**
   * The config's `gateway.auth.rateLimit`, read on every check (so a reload applies): its
   * `maxAttempts` / `windowMs` win over the options above, `lockoutMs` keeps a bucket that hit the
   * limit refused that long after its last wrong guess, `exemptLoopback` never limits loopback.
   */
  settings?: () => GatewayAuthRateLimit | undefined;
}

/** Tracks wrong guesses per bucket; memory is bounded by `maxBuckets` × `max` timestamps. */
export class AuthRateLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly lockedUntil = new Map<string, number>();
  private readonly maxBuckets: number;
  private readonly now: () => number;

  constructor(private readonly options: AuthRateLimitOptions = {}) {
    this.maxBuckets = Math.max(1, options.maxBuckets ?? 10_000);
    this.now = options.now ?? Date.now;
  }

  private limits() {
    const cfg = this.options.settings?.();
    return {
      max: Math.max(1, cfg?.maxAttempts ?? this.options.max ?? 10),
      windowMs: cfg?.windowMs ?? this.options.windowMs ?? 60_000,
      lockoutMs: cfg?.lockoutMs ?? 0,
      exemptLoopback: cfg?.exemptLoopback === true,
    };
  }

  /** Milliseconds until the bucket of `address` is under the limit again, or 0 when it is now. */
  retryAfterMs(address: string): number {
    const bucket = rateLimitBucket(address);
    const limits = this.limits();
    if (limits.exemptLoopback && bucket === "loopback") return 0;
    const locked = (this.lockedUntil.get(bucket) ?? 0) - this.now();
    if (locked > 0) return locked;
    this.lockedUntil.delete(bucket);
    const recent = this.recent(bucket, limits.windowMs);
    if (recent.length < limits.max) return 0;
    return Math.max(1, recent[recent.length - limits.max]! + limits.windowMs - this.now());
  }

  /** Records one wrong guess from `address` (only the newest `max` are kept per bucket). */
  fail(address: string): void {
    const bucket = rateLimitBucket(address);
    const limits = this.limits();
    if (limits.exemptLoopback && bucket === "loopback") return;
    const recent = this.recent(bucket, limits.windowMs);
    recent.push(this.now());
    this.failures.delete(bucket);
    this.failures.set(bucket, recent.slice(-limits.max));
    if (recent.length >= limits.max && limits.lockoutMs > 0)
      this.lockedUntil.set(bucket, this.now() + limits.lockoutMs);
    while (this.failures.size > this.maxBuckets) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
      this.lockedUntil.delete(oldest);
    }
  }

  /** Buckets tracked now (at most `maxBuckets`). */
  get size(): number {
    return this.failures.size;
  }

  private recent(bucket: string, windowMs: number): number[] {
    const cutoff = this.now() - windowMs;
    const list = (this.failures.get(bucket) ?? []).filter((at) => at > cutoff);
    if (list.length === 0) this.failures.delete(bucket);
    return list;
  }
}
