// Failed-auth rate limiting per remote address: at most `max` failures per sliding window; past
// that the address is refused (UNAVAILABLE with retryAfterMs) until its oldest failure ages out.

/** Limits of {@link AuthRateLimiter}. */
export interface AuthRateLimitOptions {
  max?: number;
  windowMs?: number;
  now?: () => number;
}

/** Tracks failures per address; bounded (oldest addresses evicted past 10 000). */
export class AuthRateLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(options: AuthRateLimitOptions = {}) {
    this.max = options.max ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds until `address` may try again, or 0 when it may now. */
  retryAfterMs(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.max) return 0;
    return Math.max(1, recent[0] + this.windowMs - this.now());
  }

  /** Records a failed attempt. */
  fail(address: string): void {
    const recent = this.recent(address);
    recent.push(this.now());
    this.failures.delete(address);
    this.failures.set(address, recent);
    if (this.failures.size > 10_000) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  /** Forgets an address after a successful connect. */
  succeed(address: string): void {
    this.failures.delete(address);
  }

  private recent(address: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(address) ?? []).filter((at) => at > cutoff);
    if (list.length === 0) this.failures.delete(address);
    return list;
  }
}
