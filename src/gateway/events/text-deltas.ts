// What a connection that declared the `text-deltas` cap gets of a run's text: `chat` deltas with
// only the text added since the previous delta it got (no cumulative `message`), and no `agent`
// assistant events (the same text comes in the chat events). Each chat event of a run has two
// such variants: `inSync` for a connection that got the run's previous chat event, `resync` (its
// `deltaText` is the whole text so far, `replace: true`) for one that missed some: a delta skipped
// while it was slow, or a run that started before it connected. So a client always rebuilds the
// exact text so far: `replace ? deltaText : text + deltaText`. The cursor (one per connection)
// remembers the chat seq of the last chat event it got per run.
import { LazyEventFrame } from "./event-frame.js";

/** How a `text-deltas` connection gets one event, as the run's event mapper describes it. */
export type TextDeltasEmit =
  /** Not sent to it (an `agent` assistant event). */
  | { kind: "omit" }
  /**
   * A chat event of a run. `inSync` (absent: the payload every other connection gets) goes to a
   * connection that got the run's previous chat event, `resync` to one that did not.
   */
  | {
      kind: "chat";
      runId: string;
      /** The run's chat seq of this event (1 for its first chat event). */
      seq: number;
      /** The run's last chat event (final, aborted, error): the cursor forgets the run. */
      end: boolean;
      inSync?: unknown;
      resync?: unknown;
    };

/** {@link TextDeltasEmit} with its payloads as lazily serialized frames. */
export type TextDeltasFrames =
  | { kind: "omit" }
  | {
      kind: "chat";
      runId: string;
      seq: number;
      end: boolean;
      inSync: LazyEventFrame;
      resync: LazyEventFrame;
    };

/** Builds the lazy frames of a `text-deltas` description; `compat` stands in for absent payloads. */
export function textDeltasFrames(params: {
  event: string;
  spec: TextDeltasEmit;
  compat: LazyEventFrame;
}): TextDeltasFrames {
  const { event, spec, compat } = params;
  if (spec.kind === "omit") return spec;
  const frame = (payload: unknown) =>
    payload === undefined ? compat : new LazyEventFrame(event, payload);
  return {
    kind: "chat",
    runId: spec.runId,
    seq: spec.seq,
    end: spec.end,
    inSync: frame(spec.inSync),
    resync: frame(spec.resync),
  };
}

/** Runs a cursor remembers at most (a forgotten run only costs one `replace` delta). */
export const MAX_CURSOR_RUNS = 256;

/** One `text-deltas` connection's position in each run's chat events. */
export class TextDeltaCursor {
  private readonly lastSeq = new Map<string, number>();

  /** The frame this connection gets of `frames` (undefined: none), recorded as received. */
  pick(frames: TextDeltasFrames): LazyEventFrame | undefined {
    if (frames.kind === "omit") return undefined;
    const { runId, seq } = frames;
    const last = this.lastSeq.get(runId);
    const inSync = last === undefined ? seq === 1 : last === seq - 1;
    this.lastSeq.delete(runId);
    if (!frames.end) {
      this.lastSeq.set(runId, seq);
      if (this.lastSeq.size > MAX_CURSOR_RUNS) {
        const oldest = this.lastSeq.keys().next().value;
        if (oldest !== undefined) this.lastSeq.delete(oldest);
      }
    }
    return inSync ? frames.inSync : frames.resync;
  }

  /** How many runs it remembers (bounded by MAX_CURSOR_RUNS). */
  get size(): number {
    return this.lastSeq.size;
  }
}
