// Coalesces a run's streamed text deltas into at most one event per window (150 ms, as OpenClaw's
// chat deltas): a delta within the window of the last one sent is held and goes out with the next
// one past the window, or when the caller flushes (before the run's next other event, at its end).
// Time comes from the injected clock only, so no timer runs and nothing depends on the wall clock.

/** The window between two delta events of one run, in ms. */
export const DELTA_WINDOW_MS = 150;

/** One run's held text for one event stream. */
export class DeltaWindow {
  private held = "";
  private lastSentAt: number | undefined;

  constructor(
    private readonly now: () => number,
    private readonly windowMs = DELTA_WINDOW_MS,
  ) {}

  /** Adds a delta; returns the text to send now (held text included), or undefined to hold it. */
  push(delta: string): string | undefined {
    this.held += delta;
    if (this.held === "") return undefined;
    const at = this.now();
    if (this.lastSentAt !== undefined && at - this.lastSentAt < this.windowMs) return undefined;
    return this.take(at);
  }

  /** The held text (sent now by the caller), or undefined when nothing is held. */
  flush(): string | undefined {
    return this.held === "" ? undefined : this.take(this.now());
  }

  private take(at: number): string {
    const out = this.held;
    this.held = "";
    this.lastSentAt = at;
    return out;
  }
}
