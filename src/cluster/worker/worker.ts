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
import { parseTurn, parseWake, type WorkerBeat } from "../queue/wire.js";
import { runDeliveredTurn } from "./turn-runner.js";

const BEAT_MS = 2000;
const IDLE_POLL_MS = 250;
const ERROR_BACKOFF_MS = 500;
/** Cancels remembered for turns not delivered yet. */
const MAX_CANCELLED = 5000;

/** Inputs of {@link runWorkerLoop}. */
export interface WorkerLoopParams {
  queue: NatsQueue;
  /** What a turn runs with, read as it starts (a config reload swaps it for later turns). */
  deps: () => AgentRuntimeDeps;
  /** Turns in flight at once, read on every pull (a reload may change it). */
  concurrency: () => number;
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
  // Partitions a wake named (the gateway's new turn) or this worker just freed (the session's next
  // turn may wait there): pulled first, without a look at the stream.
  const hints = new Set<number>();
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
      concurrency: concurrency(),
      inFlight: running.size,
      startedAt,
      ...(last ? { stopping: true } : {}),
    };
    if (queue.connected) queue.publish(subjects.workers, message);
  };
  const unsubscribe = [
    queue.subscribe(
      subjects.wake,
      (data) => {
        const partition = parseWake(data);
        if (partition !== undefined && partition < queue.settings.partitions) hints.add(partition);
        poke();
      },
      logger,
    ),
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
      deps: params.deps(),
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
        hints.add(partition);
        poke();
      });
    running.set(turn.runId, { partition, controller, done });
  };

  // Pulls run beside the loop (one slow answer never holds the others up), each holding a slot and
  // its partition until it answers. Only a pull that got a turn wakes the loop: empty answers (a
  // partition whose turn runs elsewhere) wait for the next wake, completion or poll.
  const pulls = new Map<number, Promise<void>>();
  const launch = (partitions: number[]): number => {
    for (const partition of partitions) {
      const pull = queue
        .pull(partition)
        .then(
          (msg) => {
            if (!msg) return;
            start(msg, partition);
            poke();
          },
          (err: unknown) => {
            logger.warn({ partition, error: String(err) }, "worker: pull failed");
          },
        )
        .finally(() => pulls.delete(partition));
      pulls.set(partition, pull);
    }
    return partitions.length;
  };

  const pullOnce = async (): Promise<number> => {
    const free = () => concurrency() - running.size - pulls.size;
    if (free() <= 0 || !queue.connected) return 0;
    const busy = new Set([...[...running.values()].map((run) => run.partition), ...pulls.keys()]);
    const hinted = shuffled([...hints].filter((partition) => !busy.has(partition)));
    hints.clear();
    // A hinted partition is pulled without the stream look-up; the loop comes straight back.
    if (hinted.length > 0) return launch(hinted.slice(0, free()));
    const depth = await queue.depth();
    for (const partition of [...running.values()].map((run) => run.partition)) busy.add(partition);
    for (const partition of pulls.keys()) busy.add(partition);
    const candidates = shuffled(
      Object.entries(depth.partitions)
        .filter(([, count]) => count > 0)
        .map(([partition]) => Number(partition))
        .filter((partition) => !busy.has(partition)),
    ).slice(0, Math.max(0, free()));
    return launch(candidates);
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

  logger.info(
    { worker: id, concurrency: concurrency(), stream: queue.settings.stream },
    "worker ready",
  );
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
  // Stopping: no new pulls (those in flight land first); let running turns finish, then cut and
  // hand back the rest.
  await Promise.allSettled([...pulls.values()]);
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
