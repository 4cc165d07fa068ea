// One event serialized for its recipients: each variant of it (OpenClaw's shape, and the shapes a
// `text-deltas` connection gets, text-deltas.ts) is turned into JSON at most once, on the first
// send that needs it, and only each connection's own `seq` is added per send.

/** The version counters presence and health events carry. */
export interface StateVersion {
  presence: number;
  health: number;
}

/** One variant of an event frame: serialized on first use, then shared by every recipient. */
export class LazyEventFrame {
  private prefix: string | undefined;
  private suffix = "";

  constructor(
    private readonly event: string,
    private readonly payload: unknown,
    private readonly stateVersion?: StateVersion,
  ) {}

  /** The frame text with this connection's `seq`. */
  withSeq(seq: number): string {
    if (this.prefix === undefined) {
      const { event, payload, stateVersion } = this;
      this.prefix = `{"type":"event","event":${JSON.stringify(event)},"payload":${JSON.stringify(payload ?? null)},"seq":`;
      this.suffix = stateVersion ? `,"stateVersion":${JSON.stringify(stateVersion)}}` : "}";
    }
    return `${this.prefix}${seq}${this.suffix}`;
  }

  /** True once some recipient needed this variant (it was serialized). */
  get serialized(): boolean {
    return this.prefix !== undefined;
  }
}
