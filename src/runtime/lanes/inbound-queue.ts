// Per-session inbound queue: decides what a message arriving during a run does (steer, followup,
// collect, interrupt), holds messages under a cap, debounces the next turn and runs turns in lanes.
import type { ImageContent } from "@mariozechner/pi-ai";
import { type Clock, systemClock } from "../../sessions/index.js";
import {
  type InboundMessage,
  joinCollected,
  SUMMARY_SAMPLES,
  summarizeDropped,
} from "./coalesce.js";
import {
  DEFAULT_QUEUE_SETTINGS,
  type QueueDropPolicy,
  type QueueModeName,
  type QueueSettings,
} from "./queue-settings.js";
import { LaneCancelledError, type LaneRunHandle, type LaneScheduler } from "./scheduler.js";
import { systemTimers, type Timers } from "./timers.js";

/** One turn handed to the run loop: the messages it answers and its steering inbox. */
export interface QueuedTurn<P = unknown> {
  sessionKey: string;
  runId: string;
  mode: QueueModeName;
  /** The messages this turn answers, oldest first (at least one). */
  messages: InboundMessage<P>[];
  /** The user prompt: one message as is, several joined, an overflow summary line first. */
  prompt: string;
  images: ImageContent[];
  route?: string;
  overflowSummary?: string;
  signal: AbortSignal;
  /** Steer mode: messages that arrived during this run; the loop calls it after each tool call. */
  drainSteering(): InboundMessage<P>[];
  /** True when `drainSteering()` would return something. */
  hasPendingSteering(): boolean;
  /** Calls `listener` whenever a message is steered into this run (a run on a worker forwards it);
   *  returns the unsubscribe. */
  watchSteering(listener: () => void): () => void;
  /** Gives back drained messages the run did not take: answered by a follow-up turn. */
  restoreSteering(messages: InboundMessage<P>[]): void;
}

/** What `submit` did with a message. */
export type SubmitDisposition = "new_turn" | "held" | "steered" | "interrupting" | "dropped";

/** Result of `submit`: the disposition and the run it started or waits behind. */
export interface SubmitResult {
  disposition: SubmitDisposition;
  runId?: string;
}

/** Why a message was dropped: the cap (per the drop policy) or an explicit cancel. */
export type DropReason = "cap" | "cancelled";

/** Everything the queue reports; drops are always reported, never silent. */
export type InboundQueueEvent<P = unknown> =
  | {
      type: "message_dropped";
      sessionKey: string;
      message: InboundMessage<P>;
      reason: DropReason;
      policy?: QueueDropPolicy;
      /** True when the message survives as a line of the next turn's overflow summary. */
      summarized: boolean;
    }
  | { type: "turn_started"; sessionKey: string; runId: string; messageCount: number }
  | { type: "turn_failed"; sessionKey: string; runId: string; error: unknown }
  | { type: "run_interrupted"; sessionKey: string; runId: string }
  | { type: "steering_delivered"; sessionKey: string; runId: string; count: number };

/** Dependencies of {@link createInboundQueue}. */
export interface InboundQueueParams<P = unknown> {
  scheduler: LaneScheduler;
  /** Runs one turn (the agent loop); it must honour `turn.signal`. */
  runTurn: (turn: QueuedTurn<P>) => Promise<unknown>;
  onEvent: (event: InboundQueueEvent<P>) => void;
  timers?: Timers;
  clock?: Clock;
}

/** Arguments of `submit`. */
export interface SubmitParams<P = unknown> {
  sessionKey: string;
  message: InboundMessage<P>;
  /** Resolved with `resolveQueueSettings`; defaults to the legacy defaults. */
  settings?: QueueSettings;
}

/** Where a session stands: idle, waiting out the debounce, queued in its lane, or running. */
export type SessionQueuePhase = "idle" | "waiting" | "scheduled" | "running";

/** The inbound queue of every session; see {@link createInboundQueue}. */
export interface InboundQueue<P = unknown> {
  submit(params: SubmitParams<P>): SubmitResult;
  /** Drops (and reports) held and steering messages, aborts the run; returns the messages dropped. */
  cancel(sessionKey: string, reason?: string): number;
  pending(sessionKey: string): { phase: SessionQueuePhase; held: number; steering: number };
  /** Sessions with queue state in memory (only those with work). */
  readonly sessionCount: number;
}

interface SessionState<P> {
  key: string;
  settings: QueueSettings;
  phase: SessionQueuePhase;
  held: InboundMessage<P>[];
  steering: InboundMessage<P>[];
  overflow: { total: number; samples: InboundMessage<P>[] };
  lastArrival: number;
  timer?: unknown;
  handle?: LaneRunHandle<unknown>;
  runId?: string;
  runRoute?: string;
  /** Listeners of the running turn's steering (cleared when it ends). */
  watchers: Set<() => void>;
  interruptRequested: boolean;
}

function byArrival(a: InboundMessage<unknown>, b: InboundMessage<unknown>): number {
  return (a.receivedAt ?? 0) - (b.receivedAt ?? 0);
}

/**
 * Creates the inbound queue. An idle session's message starts a turn at once; messages arriving while
 * a turn is queued or running are handled per the session's mode, and the next turn starts when the run
 * ends and `debounceMs` of quiet have passed since the last arrival.
 */
export function createInboundQueue<P = unknown>(params: InboundQueueParams<P>): InboundQueue<P> {
  const { scheduler, runTurn, onEvent } = params;
  const timers = params.timers ?? systemTimers;
  const clock = params.clock ?? systemClock;
  const sessions = new Map<string, SessionState<P>>();
  type State = SessionState<P>;
  type Message = InboundMessage<P>;

  const ensure = (key: string, settings: QueueSettings): State => {
    let state = sessions.get(key);
    if (!state) {
      state = {
        key,
        settings,
        phase: "idle",
        held: [],
        steering: [],
        overflow: { total: 0, samples: [] },
        lastArrival: 0,
        watchers: new Set(),
        interruptRequested: false,
      };
      sessions.set(key, state);
    }
    state.settings = settings;
    return state;
  };

  const reportDrop = (
    state: State,
    message: Message,
    drop: { reason: DropReason; policy?: QueueDropPolicy; summarized: boolean },
  ): void => {
    onEvent({ type: "message_dropped", sessionKey: state.key, message, ...drop });
  };

  /** Adds `message` to `list` under the cap; false when the newcomer itself was dropped. */
  const admit = (state: State, list: Message[], message: Message): boolean => {
    const { cap, drop } = state.settings;
    if (list.length < cap) {
      list.push(message);
      return true;
    }
    if (drop === "new") {
      reportDrop(state, message, { reason: "cap", policy: drop, summarized: false });
      return false;
    }
    const oldest = list.shift()!;
    list.push(message);
    const summarized = drop === "summarize";
    if (summarized) {
      state.overflow.total += 1;
      if (state.overflow.samples.length < SUMMARY_SAMPLES) state.overflow.samples.push(oldest);
    }
    reportDrop(state, oldest, { reason: "cap", policy: drop, summarized });
    return true;
  };

  const takeOverflowSummary = (state: State): string | undefined => {
    if (state.overflow.total === 0) return undefined;
    const line = summarizeDropped(state.overflow.samples, state.overflow.total);
    state.overflow = { total: 0, samples: [] };
    return line;
  };

  const takeBatch = (state: State): Message[] => {
    if (state.held.length === 0) return [];
    const first = state.held[0];
    const sameRoute = (message: Message) => message.route === first.route;
    const mode = state.settings.mode;
    if (mode === "followup") return [state.held.shift()!];
    const batch = state.held.filter(sameRoute);
    state.held = state.held.filter((message) => !sameRoute(message));
    if (mode === "steer") {
      // The first message is the prompt; the rest steer the run from its first model call.
      state.steering.push(...batch.slice(1));
      return [first];
    }
    return batch;
  };

  const drain = (state: State, runId: string): Message[] => {
    if (state.runId !== runId || state.steering.length === 0) return [];
    const out = state.steering.splice(0);
    const summary = takeOverflowSummary(state);
    if (summary) out.unshift({ text: summary, overflowSummary: true });
    onEvent({ type: "steering_delivered", sessionKey: state.key, runId, count: out.length });
    return out;
  };

  /** Messages a run elsewhere drained but did not take: held again (ahead of later arrivals, as
   *  steering left at a run's end is), or a turn of their own if the session went idle meanwhile. */
  const restore = (state: State, route: string | undefined, messages: Message[]): void => {
    if (messages.length === 0) return;
    const target = sessions.get(state.key) ?? ensure(state.key, state.settings);
    // The overflow summary line leads the follow-up turn, as it would have led the steering.
    const back = messages.map((m) => (m.overflowSummary && !m.route ? { ...m, route } : m));
    target.held = [...back, ...target.held].sort(byArrival);
    if (target.phase === "idle") schedule(target);
  };

  const startTurn = (state: State, signal: AbortSignal, runId: string): Promise<unknown> => {
    state.phase = "running";
    state.runId = runId;
    state.interruptRequested = false;
    const messages = takeBatch(state);
    if (messages.length === 0) return Promise.resolve(undefined);
    state.runRoute = messages[0].route;
    const overflowSummary = takeOverflowSummary(state);
    const joined = joinCollected(messages);
    const turn: QueuedTurn<P> = {
      sessionKey: state.key,
      runId,
      mode: state.settings.mode,
      messages,
      prompt: overflowSummary ? `${overflowSummary}\n\n${joined}` : joined,
      images: messages.flatMap((message) => message.images ?? []),
      route: messages[0].route,
      overflowSummary,
      signal,
      drainSteering: () => drain(state, runId),
      hasPendingSteering: () => state.runId === runId && state.steering.length > 0,
      watchSteering: (listener) => {
        if (state.runId !== runId) return () => undefined;
        state.watchers.add(listener);
        return () => state.watchers.delete(listener);
      },
      restoreSteering: (back) => restore(state, messages[0].route, back),
    };
    onEvent({
      type: "turn_started",
      sessionKey: state.key,
      runId,
      messageCount: messages.length,
    });
    return runTurn(turn);
  };

  const arm = (state: State, ms: number): void => {
    state.phase = "waiting";
    state.timer = timers.setTimeout(() => {
      state.timer = undefined;
      if (sessions.get(state.key) !== state || state.phase !== "waiting") return;
      const wait = state.lastArrival + state.settings.debounceMs - clock.now();
      if (wait > 0) arm(state, wait);
      else schedule(state);
    }, ms);
  };

  const turnEnded = (state: State, runId: string, error: unknown): void => {
    if (error !== undefined && !(error instanceof LaneCancelledError)) {
      onEvent({ type: "turn_failed", sessionKey: state.key, runId, error });
    }
    if (sessions.get(state.key) !== state || state.handle?.runId !== runId) return;
    const interrupted = state.interruptRequested;
    state.phase = "idle";
    state.handle = undefined;
    state.runId = undefined;
    state.runRoute = undefined;
    state.watchers.clear();
    state.interruptRequested = false;
    if (state.steering.length > 0) {
      // Steering the run never took falls back to a follow-up turn, in arrival order.
      state.held = [...state.steering, ...state.held].sort(byArrival);
      state.steering = [];
    }
    if (state.held.length === 0) {
      sessions.delete(state.key);
      return;
    }
    const immediate = interrupted || state.settings.mode === "interrupt";
    const wait = immediate ? 0 : state.lastArrival + state.settings.debounceMs - clock.now();
    if (wait > 0) arm(state, wait);
    else schedule(state);
  };

  function schedule(state: State): void {
    state.phase = "scheduled";
    const handle = scheduler.enqueue(state.key, (signal, info) =>
      startTurn(state, signal, info.runId),
    );
    state.handle = handle;
    handle.result.then(
      () => turnEnded(state, handle.runId, undefined),
      (error: unknown) => turnEnded(state, handle.runId, error),
    );
  }

  const interrupt = (state: State): void => {
    if (state.interruptRequested || !state.runId) return;
    state.interruptRequested = true;
    onEvent({ type: "run_interrupted", sessionKey: state.key, runId: state.runId });
    state.handle?.abort("interrupted by a newer message");
  };

  const currentRunId = (state: State) => state.runId ?? state.handle?.runId;

  return {
    submit({ sessionKey, message, settings = DEFAULT_QUEUE_SETTINGS }) {
      const state = ensure(sessionKey, settings);
      const now = clock.now();
      const incoming = message.receivedAt === undefined ? { ...message, receivedAt: now } : message;
      state.lastArrival = now;
      if (state.phase === "running") {
        const steer = settings.mode === "steer" && incoming.route === state.runRoute;
        const list = steer ? state.steering : state.held;
        if (!admit(state, list, incoming)) return { disposition: "dropped", runId: state.runId };
        if (steer) {
          for (const listener of [...state.watchers]) listener();
          return { disposition: "steered", runId: state.runId };
        }
        if (settings.mode === "interrupt") {
          interrupt(state);
          return { disposition: "interrupting", runId: state.runId };
        }
        return { disposition: "held", runId: state.runId };
      }
      if (!admit(state, state.held, incoming)) {
        return { disposition: "dropped", runId: currentRunId(state) };
      }
      if (state.phase === "waiting" && settings.mode === "interrupt") {
        timers.clearTimeout(state.timer);
        state.timer = undefined;
        state.phase = "idle";
      }
      if (state.phase === "idle") {
        schedule(state);
        return { disposition: "new_turn", runId: currentRunId(state) };
      }
      return { disposition: "held", runId: currentRunId(state) };
    },
    cancel(sessionKey, reason = "cancelled") {
      const state = sessions.get(sessionKey);
      if (!state) return 0;
      if (state.timer !== undefined) timers.clearTimeout(state.timer);
      state.timer = undefined;
      const dropped = [...state.steering, ...state.held].sort(byArrival);
      state.held = [];
      state.steering = [];
      state.overflow = { total: 0, samples: [] };
      for (const message of dropped)
        reportDrop(state, message, { reason: "cancelled", summarized: false });
      if (state.handle) state.handle.abort(reason);
      else sessions.delete(sessionKey);
      return dropped.length;
    },
    pending(sessionKey) {
      const state = sessions.get(sessionKey);
      if (!state) return { phase: "idle", held: 0, steering: 0 };
      return { phase: state.phase, held: state.held.length, steering: state.steering.length };
    },
    get sessionCount() {
      return sessions.size;
    },
  };
}
