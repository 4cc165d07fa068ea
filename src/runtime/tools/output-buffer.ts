// Bounded capture of a command's output: the first quarter of the cap and the newest three quarters are kept
// (errors usually come last), with a marker for what was dropped; plus a cursor for "new since last poll".

/** Head + tail capture of a stream of text, bounded in memory. */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private dropped = 0;
  private pending = "";
  private pendingDropped = 0;
  private readonly headCap: number;
  private readonly tailCap: number;
  /** Characters appended so far. */
  total = 0;

  constructor(
    readonly cap: number,
    private readonly pendingCap: number = cap,
  ) {
    this.headCap = Math.floor(cap / 4);
    this.tailCap = cap - this.headCap;
  }

  /** Adds a chunk of output. */
  append(chunk: string): void {
    if (chunk === "") return;
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headCap && this.dropped === 0 && this.tail === "") {
      const room = this.headCap - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest !== "") {
      this.tail += rest;
      if (this.tail.length > this.tailCap) {
        this.dropped += this.tail.length - this.tailCap;
        this.tail = this.tail.slice(-this.tailCap);
      }
    }
    this.pending += chunk;
    if (this.pending.length > this.pendingCap) {
      this.pendingDropped += this.pending.length - this.pendingCap;
      this.pending = this.pending.slice(-this.pendingCap);
    }
  }

  /** True when some output was dropped from the middle. */
  get truncated(): boolean {
    return this.dropped > 0;
  }

  /** Everything kept: head, a marker naming the dropped amount, tail. */
  text(): string {
    if (this.dropped === 0) return this.head + this.tail;
    return `${this.head}\n\n[... ${this.dropped} characters of output omitted ...]\n\n${this.tail}`;
  }

  /** The newest `maxChars` characters kept (for progress updates). */
  latest(maxChars: number): string {
    const all = this.head + this.tail;
    return all.length > maxChars ? all.slice(-maxChars) : all;
  }

  /** Output appended since the previous drain (its newest part when more than the pending cap arrived). */
  drain(): string {
    const skipped = this.pendingDropped;
    const text = this.pending;
    this.pending = "";
    this.pendingDropped = 0;
    return skipped > 0 ? `[... ${skipped} earlier characters omitted ...]\n${text}` : text;
  }
}
