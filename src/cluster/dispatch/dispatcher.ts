// The gateway's half of the run queue: a turn the gateway would have run in-process is published to
// its session's partition instead, and the RunHandle it returns is fed by the worker's events
// (`<prefix>.events.<runId>`) and result (`<prefix>.results`), so RunTracker, agent.wait, chat
// streaming and channel delivery consume it exactly as an in-process run. Per-session order comes
// from the partition (published in the order runs start), not from the gateway's lanes.
// After a reconnect every pending turn is published again under a new dedupe id: whatever the
// gateway missed while away (a result published meanwhile) is answered again by a worker from the
// session's transcript (the worker's idempotency check), never run twice. Steer mode reaches the
// worker through a SteerRelay per run (steer-relay.ts).
import { hostname } from "node:os";
import type { Logger } from "../../lib/logger.js";
import { createEventChannel, type EventChannel, type RunEvent } from "../../runtime/run/events.js";
import type { RunAgentParams, RunHandle, RunResult } from "../../runtime/run/run-agent.js";
import type { UsageRecord } from "../../runtime/usage/usage-record.js";
import { NatsQueue, type QueueDepth } from "../queue/nats-queue.js";
import { partitionOf } from "../queue/partition.js";
import { type QueueSettings, signalSubjects } from "../queue/settings.js";
import {
  parseBeat,
  parseEvent,
  parseResult,
  parseSteeredAck,
  type TurnMessage,
  type WorkerBeat,
} from "../queue/wire.js";
import { type GatewayToolHosts, serveHostCalls } from "./host-calls.js";
import { remoteSteeringOf, SteerRelay } from "./steer-relay.js";

/** Published turns whose usage record has not come back yet, at most (oldest forgotten first). */
const AWAITING_USAGE_MAX = 10_000;

/** Inputs of {@link ClusterDispatcher.open} besides the queue settings. */
export interface DispatcherParams {
  logger: Logger;
  now: () => number;
  /** Logs a worker turn's usage record (the gateway's BudgetLedger.record); once per runId. */
  onUsage?: (record: UsageRecord) => void;
  /** The gateway's cron and nodes tool hosts, which worker runs call over `<prefix>.host`. */
  toolHosts?: GatewayToolHosts;
}

/** A worker is listed while its last heartbeat is younger than this. */
const WORKER_SEEN_MS = 10_000;

/** A run to dispatch: what `runAgent` takes, id and agent given. */
export type DispatchParams = RunAgentParams & { runId: string; agentId: string };

interface PendingRun {
  turn: TurnMessage;
  partition: number;
  attempt: number;
  nextSeq: number;
  channel: EventChannel<RunEvent>;
  resolve: (result: RunResult) => void;
  /** Steer mode: messages steered into the run go to its worker. */
  steer?: SteerRelay;
}

/** What `status` shows of the queue. */
export interface ClusterQueueStatus {
  kind: "nats";
  url: string;
  connected: boolean;
  depth?: QueueDepth;
  depthError?: string;
  /** Turns this gateway published whose result has not come back yet. */
  pending: number;
  workers: Array<WorkerBeat & { lastSeenMs: number }>;
}

function emptyUsage(): RunResult["usage"] {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
}

function failedResult(runId: string, status: "error" | "aborted", error: string): RunResult {
  return { runId, status, payloads: [], usage: emptyUsage(), durationMs: 0, failovers: [], error };
}

/** The retryable refusal of a turn while NATS is unreachable (nothing was queued). */
export const QUEUE_DOWN_MESSAGE =
  "run queue unavailable: NATS is disconnected (the gateway is reconnecting); the turn was not queued — retry";

/** Publishes turns to workers and turns their events and results back into RunHandles. */
export class ClusterDispatcher {
  private readonly pending = new Map<string, PendingRun>();
  private readonly workers = new Map<string, { beat: WorkerBeat; seenAt: number }>();
  private readonly unsubscribe: Array<() => void> = [];
  /** Runs published here whose usage is still to be logged (a republished or late result of an
   *  aborted run logs once; a result for a run another gateway published is not logged here). */
  private readonly awaitingUsage = new Set<string>();

  private constructor(
    private readonly queue: NatsQueue,
    private readonly params: DispatcherParams,
  ) {}

  /** Connects, creates the stream and consumers when missing, and subscribes to the return path. */
  static async open(
    params: DispatcherParams & { settings: QueueSettings },
  ): Promise<ClusterDispatcher> {
    let dispatcher: ClusterDispatcher | undefined;
    const queue = await NatsQueue.open({
      settings: params.settings,
      name: `pincer-gateway-${hostname()}-${process.pid}`,
      logger: params.logger,
      onStatus: (status) => {
        if (status === "reconnect") dispatcher?.republish();
      },
    });
    await queue.ensureTopology();
    const { settings: _settings, ...rest } = params;
    dispatcher = new ClusterDispatcher(queue, rest);
    dispatcher.subscribe();
    if (params.toolHosts)
      dispatcher.unsubscribe.push(
        serveHostCalls({ queue, hosts: params.toolHosts, logger: params.logger }),
      );
    params.logger.info(
      { url: params.settings.url, stream: params.settings.stream },
      "run queue connected: turns run on workers",
    );
    return dispatcher;
  }

  private subscribe(): void {
    const { queue } = this;
    const { logger } = this.params;
    const subjects = signalSubjects(queue.settings);
    this.unsubscribe.push(
      queue.subscribe(subjects.eventsAll, (data) => this.onEvent(data), logger),
      queue.subscribe(subjects.results, (data) => this.onResult(data), logger),
      queue.subscribe(subjects.workers, (data) => this.onBeat(data), logger),
      queue.subscribe(subjects.steeredAll, (data) => this.onSteered(data), logger),
    );
  }

  private onEvent(data: Uint8Array): void {
    const parsed = parseEvent(data);
    if (!parsed.ok) {
      this.params.logger.warn({ error: parsed.error }, "run queue: malformed event dropped");
      return;
    }
    const run = this.pending.get(parsed.value.runId);
    // A redelivered turn numbers its events from 0 again: what the client already saw is skipped.
    if (!run || parsed.value.seq < run.nextSeq) return;
    // Its first event: the run is on a worker, subscribed to its steers.
    run.steer?.start();
    run.nextSeq = parsed.value.seq + 1;
    run.channel.push(parsed.value.event);
  }

  private onResult(data: Uint8Array): void {
    const parsed = parseResult(data);
    if (!parsed.ok) {
      this.params.logger.warn({ error: parsed.error }, "run queue: malformed result dropped");
      return;
    }
    const { runId, usage, steered } = parsed.value;
    if (usage && this.awaitingUsage.delete(runId)) this.logUsage(usage);
    this.finish(runId, parsed.value.result, Array.isArray(steered) ? steered : []);
  }

  private onSteered(data: Uint8Array): void {
    const parsed = parseSteeredAck(data);
    if (!parsed.ok) {
      this.params.logger.warn({ error: parsed.error }, "run queue: malformed steered ack dropped");
      return;
    }
    this.pending.get(parsed.value.runId)?.steer?.taken(parsed.value.id);
  }

  private logUsage(record: UsageRecord): void {
    try {
      this.params.onUsage?.(record);
    } catch (err) {
      this.params.logger.error(
        { runId: record.runId, error: String(err) },
        "run queue: usage record not logged",
      );
    }
  }

  private onBeat(data: Uint8Array): void {
    const parsed = parseBeat(data);
    if (!parsed.ok) return;
    const beat = parsed.value;
    if (beat.stopping) this.workers.delete(beat.id);
    else this.workers.set(beat.id, { beat, seenAt: this.params.now() });
  }

  /** Ends a pending run. Its steering is settled first (`steered` from its result; absent: no
   *  result), so what the run did not take is back in the session's queue before the run ends. */
  private finish(runId: string, result: RunResult, steered?: readonly string[]): void {
    const run = this.pending.get(runId);
    if (!run) return;
    this.pending.delete(runId);
    run.steer?.settle(steered);
    run.resolve(result);
    run.channel.close();
  }

  /** Why a new turn is refused now (NATS down), or undefined. */
  refusal(): string | undefined {
    return this.queue.connected ? undefined : QUEUE_DOWN_MESSAGE;
  }

  /** Publishes a turn; its handle's events and result come from the worker that runs it. */
  start(params: DispatchParams): RunHandle {
    const { runId } = params;
    const channel = createEventChannel<RunEvent>();
    let resolve!: (result: RunResult) => void;
    const result = new Promise<RunResult>((done) => {
      resolve = done;
    });
    const turn: TurnMessage = {
      v: 1,
      runId,
      agentId: params.agentId,
      sessionKey: params.sessionKey,
      message: params.message,
      ...(params.images?.length ? { images: params.images } : {}),
      ...(params.timeoutSeconds !== undefined ? { timeoutSeconds: params.timeoutSeconds } : {}),
      ...(params.recovery ? { recovery: params.recovery } : {}),
      ...(params.inboundKeys?.length ? { inboundKeys: [...params.inboundKeys] } : {}),
      ...(params.budget ? { budget: params.budget } : {}),
      publishedAt: this.params.now(),
    };
    const partition = partitionOf(params.sessionKey, this.queue.settings.partitions);
    const run: PendingRun = { turn, partition, attempt: 0, nextSeq: 0, channel, resolve };
    const steering = remoteSteeringOf(params.steering);
    if (steering) run.steer = this.steerRelay(runId, steering);
    this.pending.set(runId, run);
    this.awaitUsage(runId);
    params.signal?.addEventListener("abort", () => this.cancel(runId), { once: true });
    void this.publish(run);
    return { runId, events: channel, result };
  }

  private steerRelay(runId: string, source: NonNullable<ReturnType<typeof remoteSteeringOf>>) {
    const subject = signalSubjects(this.queue.settings).steer(runId);
    return new SteerRelay({
      runId,
      source,
      send: (steer, timeoutMs) => this.queue.request(subject, steer, timeoutMs),
      logger: this.params.logger,
    });
  }

  private awaitUsage(runId: string): void {
    this.awaitingUsage.delete(runId);
    this.awaitingUsage.add(runId);
    if (this.awaitingUsage.size <= AWAITING_USAGE_MAX) return;
    const oldest = this.awaitingUsage.values().next().value;
    if (oldest !== undefined) this.awaitingUsage.delete(oldest);
  }

  /** chat.abort / shutdown: the workers are told (a queued turn is skipped, a running one aborted)
   *  and the handle ends at once as aborted (a turn journal resumes an interrupted one later). */
  private cancel(runId: string): void {
    if (!this.pending.has(runId)) return;
    if (this.queue.connected)
      this.queue.publish(signalSubjects(this.queue.settings).cancel(runId), {});
    this.finish(runId, failedResult(runId, "aborted", "run aborted"));
  }

  private async publish(run: PendingRun): Promise<void> {
    const { runId } = run.turn;
    try {
      // A duplicate ack means this id was published within the dedupe window (a resumed turn, a
      // republish): publish again under the next attempt so the turn is really queued once more.
      for (;;) {
        const ack = await this.queue.publishTurn(run);
        if (!ack.duplicate) break;
        run.attempt++;
      }
      this.queue.publish(signalSubjects(this.queue.settings).wake, { partition: run.partition });
    } catch (err) {
      this.params.logger.error({ runId, error: String(err) }, "run queue: turn not published");
      const reason = this.queue.connected ? `turn not queued: ${String(err)}` : QUEUE_DOWN_MESSAGE;
      this.finish(runId, failedResult(runId, "error", reason));
    }
  }

  /** Publishes every pending turn again (after a reconnect); workers answer finished ones from the
   *  transcript. */
  private republish(): void {
    for (const run of this.pending.values()) {
      run.attempt++;
      void this.publish(run);
    }
  }

  /** Connection, queue depth per partition and the workers seen lately. */
  async status(): Promise<ClusterQueueStatus> {
    const now = this.params.now();
    const workers = [...this.workers.values()]
      .filter((worker) => now - worker.seenAt < WORKER_SEEN_MS)
      .map((worker) => ({ ...worker.beat, lastSeenMs: now - worker.seenAt }))
      .sort((a, b) => a.id.localeCompare(b.id));
    const base = {
      kind: "nats" as const,
      url: this.queue.settings.url,
      connected: this.queue.connected,
      pending: this.pending.size,
      workers,
    };
    if (!this.queue.connected) return { ...base, depthError: "disconnected" };
    try {
      return { ...base, depth: await this.queue.depth() };
    } catch (err) {
      return { ...base, depthError: String(err) };
    }
  }

  /** Unsubscribes and closes the connection; runs still pending end as errors. */
  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    for (const runId of [...this.pending.keys()])
      this.finish(runId, failedResult(runId, "error", "gateway stopping"));
    await this.queue.close(this.params.logger);
  }
}
