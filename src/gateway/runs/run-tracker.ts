// Runs started through the gateway: their stream mapped to `agent` and `chat` events
// (events/run-stream-events.ts), waiters for agent.wait (waiting never cancels), aborts for chat.abort, and a drain for
// shutdown. Finished runs are remembered (bounded) so agent.wait can answer after the fact.

import { randomUUID } from "node:crypto";
import type { Logger } from "../../lib/logger.js";
import type { RunAgentParams, RunEvent, RunHandle, RunResult } from "../../runtime/run/index.js";
import type { EmitEvent } from "../events/event-fanout.js";
import { createRunStreamEvents } from "../events/run-stream-events.js";
import type { RunResources } from "./run-resources.js";

/** How a run ended, as agent.wait reports it. */
export type WaitStatus = "ok" | "error" | "timeout";

/** One run the gateway started. */
export interface TrackedRun {
  runId: string;
  sessionKey: string;
  agentId: string;
  acceptedAt: number;
  startedAt?: number;
  endedAt?: number;
  status?: WaitStatus;
  error?: string;
  /** Aborted by a gateway shutdown (not by a client): a journaled turn stays pending and resumes. */
  interrupted?: boolean;
  controller: AbortController;
  result: Promise<RunResult>;
}

/** A run that ended before this process (a settled journaled turn), as agent.wait reports it. */
export interface FinishedRun {
  runId: string;
  sessionKey: string;
  agentId: string;
  status: WaitStatus;
  startedAt?: number;
  endedAt?: number;
  error?: string;
}

/** A run to start and track: what `runAgent` takes, its id and agent always given. The one way the
 *  gateway starts a run (WS turns, channel turns, heartbeats). */
export interface StartRunParams extends Omit<RunAgentParams, "signal" | "runId" | "agentId"> {
  runId: string;
  agentId: string;
  /** Called when the run leaves its lane's queue and starts. */
  onStart?: () => void;
  /** Called when the run is aborted from outside (chat.abort, shutdown), besides its signal: a
   *  channel turn also drops what its session has queued. */
  onAbort?: () => void;
  /** Called with each of the run's events as it happens (a verbose channel shows its tool calls). */
  onEvent?: (event: RunEvent) => void;
}

/** Broadcasts an event to the connected clients. */
export type { EmitEvent } from "../events/event-fanout.js";

const MAX_REMEMBERED = 2000;

/** The agent.wait status of a run result (an abort reads as an error). */
export function waitStatus(result: RunResult): WaitStatus {
  if (result.status === "ok") return "ok";
  return result.status === "timeout" ? "timeout" : "error";
}

/** Tracks the gateway's runs and turns their events into protocol events. */
export class RunTracker {
  private readonly runs = new Map<string, TrackedRun>();
  private readonly announced = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      runtime: RunResources;
      emit: EmitEvent;
      logger: Logger;
      now: () => number;
    },
  ) {}

  /** Starts a run now (it may queue in its session's lane) and tracks it. */
  async start(params: StartRunParams): Promise<TrackedRun> {
    const { onStart, onAbort, onEvent, ...request } = params;
    const controller = new AbortController();
    if (onAbort) controller.signal.addEventListener("abort", onAbort, { once: true });
    const handle = await this.deps.runtime.start({ ...request, signal: controller.signal });
    return this.track({ ...params, controller, handle });
  }

  /** Remembers a run that already ended (restored from the turn journal), so agent.wait answers. */
  restore(finished: FinishedRun): void {
    const result: RunResult = {
      runId: finished.runId,
      status: finished.status,
      payloads: [],
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      durationMs: 0,
      failovers: [],
      ...(finished.error ? { error: finished.error } : {}),
    };
    this.remember({
      ...finished,
      acceptedAt: finished.startedAt ?? finished.endedAt ?? this.deps.now(),
      controller: new AbortController(),
      result: Promise.resolve(result),
    });
  }

  private track(params: {
    runId: string;
    agentId: string;
    sessionKey: string;
    controller: AbortController;
    handle: RunHandle;
    onStart?: () => void;
    onEvent?: (event: RunEvent) => void;
  }): TrackedRun {
    const run: TrackedRun = {
      runId: params.runId,
      sessionKey: params.sessionKey,
      agentId: params.agentId,
      acceptedAt: this.deps.now(),
      controller: params.controller,
      result: params.handle.result,
    };
    this.remember(run);
    this.pump(run, params.handle.events, params).catch((err: unknown) => {
      this.deps.logger.error({ runId: run.runId, error: String(err) }, "run event stream failed");
    });
    return run;
  }

  /** A run by id (live or remembered). */
  get(runId: string): TrackedRun | undefined {
    return this.runs.get(runId);
  }

  /** Runs not finished yet. */
  active(): TrackedRun[] {
    return [...this.runs.values()].filter((run) => run.status === undefined);
  }

  /** Waits up to `timeoutMs` for a run to end; never cancels it. */
  async wait(runId: string, timeoutMs: number) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      const starting = this.announced.get(runId);
      if (!this.runs.has(runId) && starting) await Promise.race([starting, timeout]);
      const run = this.runs.get(runId);
      if (!run) return { runId, status: "timeout" as const };
      if (run.status === undefined) {
        await Promise.race([run.result.then(() => undefined), timeout]);
        // Let the pump record the outcome of a result that just settled.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (run.status === undefined) {
        return {
          runId,
          status: "timeout" as const,
          ...(run.startedAt ? { startedAt: run.startedAt } : {}),
        };
      }
      return {
        runId,
        status: run.status,
        ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
        ...(run.endedAt !== undefined ? { endedAt: run.endedAt } : {}),
        ...(run.error ? { error: run.error } : {}),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** A run about to start (a journaled turn a restart resumes): until `started` resolves, agent.wait
   *  waits for it instead of answering "timeout" for an unknown run. */
  announce(runId: string, started: Promise<unknown>): void {
    // Settled either way: whoever started the run reports its failure.
    const settled = Promise.allSettled([started]).then(() => {
      if (this.announced.get(runId) === settled) this.announced.delete(runId);
    });
    this.announced.set(runId, settled);
  }

  /** Aborts a session's live runs (or one of them); returns the aborted run ids. */
  abort(sessionKey: string, runId?: string): string[] {
    const hit = this.active().filter(
      (run) => run.sessionKey === sessionKey && (runId === undefined || run.runId === runId),
    );
    for (const run of hit) run.controller.abort(new Error("aborted by chat.abort"));
    return hit.map((run) => run.runId);
  }

  /** Waits for live runs up to `boundMs`, then aborts the rest and waits for them to settle. */
  async drain(boundMs: number): Promise<{ finished: number; aborted: number }> {
    const live = this.active();
    if (live.length === 0) return { finished: 0, aborted: 0 };
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    });
    await Promise.race([Promise.allSettled(live.map((run) => run.result)), bound]);
    clearTimeout(timer);
    const left = this.active();
    for (const run of left) {
      run.interrupted = true;
      run.controller.abort(new Error("gateway shutting down"));
    }
    await Promise.allSettled(left.map((run) => run.result));
    return { finished: live.length - left.length, aborted: left.length };
  }

  private remember(run: TrackedRun): void {
    this.runs.delete(run.runId);
    this.runs.set(run.runId, run);
    if (this.runs.size <= MAX_REMEMBERED) return;
    for (const [id, old] of this.runs) {
      if (this.runs.size <= MAX_REMEMBERED) break;
      if (old.status !== undefined) this.runs.delete(id);
    }
  }

  private async pump(
    run: TrackedRun,
    events: AsyncIterable<RunEvent>,
    hooks: Pick<StartRunParams, "onStart" | "onEvent">,
  ): Promise<void> {
    const stream = createRunStreamEvents(run, this.deps);
    for await (const event of events) {
      if (event.type === "lifecycle" && event.phase === "start") hooks.onStart?.();
      try {
        hooks.onEvent?.(event);
      } catch (err) {
        // A listener's bug must not cut the run's event stream to the clients.
        this.deps.logger.error(
          { runId: run.runId, error: String(err) },
          "run event listener failed",
        );
      }
      stream.onEvent(event);
    }
    const result = await run.result;
    run.endedAt = this.deps.now();
    run.status = waitStatus(result);
    if (result.error) run.error = result.error;
    if (result.status === "error") {
      const { runId, sessionKey, agentId } = run;
      this.deps.logger.error({ runId, sessionKey, agentId, error: result.error }, "run failed");
    }
    stream.onResult(result);
    this.deps.emit("sessions.changed", {
      sessionKey: run.sessionKey,
      reason: "run",
      ts: run.endedAt,
    });
  }
}

/** Starts a run nobody waits for (a hook's turn): its id is `<prefix>-<uuid>`, a failure is logged. */
export async function startDetachedRun(params: {
  runs: RunTracker;
  prefix: string;
  turn: Omit<StartRunParams, "runId">;
  logger: Logger;
}): Promise<void> {
  const run = await params.runs.start({
    runId: `${params.prefix}-${randomUUID()}`,
    ...params.turn,
  });
  void run.result.catch((err: unknown) => {
    params.logger.error({ runId: run.runId, error: String(err) }, `${params.prefix} turn failed`);
  });
}
