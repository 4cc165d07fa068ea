// `pincer worker`: pulls turns from the run queue and runs them with the local runtime, at most
// `concurrency` at a time (agents.defaults.maxConcurrent unless --concurrency). The pull loop:
// a look at the stream's per-partition counts (one request), then a no-wait pull from as many
// non-empty partitions as there are free slots (shuffled, so workers spread out), never from one
// this worker already runs. A partition whose turn runs elsewhere answers "nothing" (MaxAckPending
// 1). Idle, it waits for the gateway's wake signal or a short poll. Every few seconds it publishes a
// heartbeat (status lists the workers). Cancels (chat.abort) arrive on `<prefix>.cancel.<runId>`.
import { hostname } from "node:os";
import type { JsMsg } from "nats";
import type { Logger } from "../../lib/logger.js";
import type { AgentRuntimeDeps } from "../../runtime/run/index.js";
import type { NatsQueue } from "../queue/nats-queue.js";
import { signalSubjects } from "../queue/settings.js";
import { parseTurn, type WorkerBeat } from "../queue/wire.js";
import { runDeliveredTurn } from "./turn-runner.js";

const BEAT_MS = 2000;
const IDLE_POLL_MS = 250;
const ERROR_BACKOFF_MS = 500;
/** Cancels remembered for turns not delivered yet. */
const MAX_CANCELLED = 5000;

/** Inputs of {@link runWorkerLoop}. */
export interface WorkerLoopParams {
  queue: NatsQueue;
  deps: AgentRuntimeDeps;
  concurrency: number;
  logger: Logger;
  /** Stops pulling; running turns get `drainMs` to finish, then are cut and handed back. */
  signal: AbortSignal;
  drainMs?: number;
  now?: () => number;
}

interface Running {
  partition: number;
  controller: AbortController;
  done: Promise<void>;
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Runs the worker until `signal` aborts and its turns are done or handed back. */
export async function runWorkerLoop(params: WorkerLoopParams): Promise<void> {
  const { queue, logger, concurrency } = params;
  const now = params.now ?? Date.now;
  const subjects = signalSubjects(queue.settings);
  const id = `${hostname()}-${process.pid}`;
  const startedAt = now();
  const running = new Map<string, Running>();
  const cancelled = new Set<string>();
  let stopping = false;
  let wake: (() => void) | undefined;
  // A poke that lands while the loop is scanning (no idle to wake) must not be lost: the next idle
  // returns at once and the loop scans again.
  let poked = false;
  const poke = () => {
    poked = true;
    wake?.();
    wake = undefined;
  };
  const beat = (last = false) => {
    const message: WorkerBeat = {
      id,
      host: hostname(),
      pid: process.pid,
      concurrency,
      inFlight: running.size,
      startedAt,
      ...(last ? { stopping: true } : {}),
    };
    if (queue.connected) queue.publish(subjects.workers, message);
  };
  const unsubscribe = [
    queue.subscribe(subjects.wake, poke, logger),
    queue.subscribe(
      subjects.cancelAll,
      (_data, subject) => {
        const runId = subject.slice(subjects.cancel("").length);
        const run = running.get(runId);
        if (run) run.controller.abort(new Error("aborted by chat.abort"));
        else {
          cancelled.add(runId);
          if (cancelled.size > MAX_CANCELLED)
            cancelled.delete(cancelled.values().next().value as string);
        }
      },
      logger,
    ),
  ];
  const beats = setInterval(() => beat(), BEAT_MS);
  beat();
  params.signal.addEventListener("abort", poke, { once: true });

  const start = (msg: JsMsg, partition: number) => {
    const parsed = parseTurn(msg.data);
    if (!parsed.ok) {
      logger.error({ partition, error: parsed.error }, "worker: malformed turn dropped");
      msg.term();
      return;
    }
    const turn = parsed.value;
    const controller = new AbortController();
    if (cancelled.delete(turn.runId)) controller.abort(new Error("aborted by chat.abort"));
    const done = runDeliveredTurn({
      queue,
      deps: params.deps,
      msg,
      turn,
      workerId: id,
      signal: controller.signal,
      stopping: () => stopping,
      logger,
    })
      .catch((err: unknown) => {
        // A bug or a lost connection: the unacked turn is redelivered after ackWaitMs.
        logger.error({ runId: turn.runId, error: String(err) }, "worker: turn failed");
      })
      .finally(() => {
        running.delete(turn.runId);
        poke();
      });
    running.set(turn.runId, { partition, controller, done });
  };

  const pullOnce = async (): Promise<number> => {
    const free = concurrency - running.size;
    if (free <= 0 || !queue.connected) return 0;
    const depth = await queue.depth();
    const held = new Set([...running.values()].map((run) => run.partition));
    const candidates = shuffled(
      Object.entries(depth.partitions)
        .filter(([, count]) => count > 0)
        .map(([partition]) => Number(partition))
        .filter((partition) => !held.has(partition)),
    ).slice(0, free);
    const pulled = await Promise.all(
      candidates.map(async (partition) => ({ partition, msg: await queue.pull(partition) })),
    );
    let started = 0;
    for (const { partition, msg } of pulled) {
      if (!msg) continue;
      start(msg, partition);
      started++;
    }
    return started;
  };

  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      if (poked) {
        resolve();
        return;
      }
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  logger.info({ worker: id, concurrency, stream: queue.settings.stream }, "worker ready");
  while (!params.signal.aborted) {
    try {
      poked = false;
      const started = await pullOnce();
      if (started === 0) await idle(IDLE_POLL_MS);
    } catch (err) {
      logger.warn({ error: String(err) }, "worker: pull failed; retrying");
      await idle(ERROR_BACKOFF_MS);
    }
  }
  // Stopping: no new pulls; let running turns finish, then cut and hand back the rest.
  const drain = Promise.allSettled([...running.values()].map((run) => run.done));
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, params.drainMs ?? 30_000);
  });
  await Promise.race([drain, bound]);
  clearTimeout(timer);
  stopping = true;
  for (const run of running.values()) run.controller.abort(new Error("worker stopping"));
  await Promise.allSettled([...running.values()].map((run) => run.done));
  clearInterval(beats);
  beat(true);
  for (const stop of unsubscribe) stop();
  logger.info({ worker: id }, "worker stopped");
}
