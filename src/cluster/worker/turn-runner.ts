// One delivered turn on a worker: reload the session (another worker may have written it), decide
// fresh or resumed from its transcript (idempotency.ts), run it with the local runtime while
// telling the server it is still in progress (so a long turn is not redelivered), stream its events
// and publish its result, then ack. The result is published and flushed BEFORE the ack: a worker
// that dies in between leaves the turn to be redelivered, and the next delivery answers from the
// transcript (flushed by the run before its result) without running it again. While the run runs,
// the worker answers its steers (`<prefix>.steer.<runId>`, steer-inbox.ts); the result lists the
// steer ids its transcript records.
import type { JsMsg } from "nats";
import type { Logger } from "../../lib/logger.js";
import type { AgentRuntimeDeps, RunResult } from "../../runtime/run/index.js";
import { runAgent } from "../../runtime/run/index.js";
import { steeredIds } from "../../runtime/run/steered-entries.js";
import { BudgetLedger } from "../../runtime/usage/budget.js";
import type { UsageRecord } from "../../runtime/usage/usage-record.js";
import type { NatsQueue } from "../queue/nats-queue.js";
import { signalSubjects } from "../queue/settings.js";
import {
  type EventMessage,
  parseSteer,
  type ResultMessage,
  type SteeredAck,
  type TurnMessage,
} from "../queue/wire.js";
import { planDelivery } from "./idempotency.js";
import { SteerInbox } from "./steer-inbox.js";

/** Inputs of {@link runDeliveredTurn}. */
export interface DeliveredTurn {
  queue: NatsQueue;
  deps: AgentRuntimeDeps;
  msg: JsMsg;
  turn: TurnMessage;
  workerId: string;
  /** Aborted by a cancel from the gateway (chat.abort) or the worker's shutdown. */
  signal: AbortSignal;
  /** True once the worker is stopping: a turn it cut is handed back (nak), not answered. */
  stopping: () => boolean;
  logger: Logger;
}

async function sessionEntries(deps: AgentRuntimeDeps, turn: TurnMessage) {
  const store = deps.stores.forAgent(turn.agentId);
  // Another worker may have written this session since (PostgreSQL); a no-op on files.
  await store.reload(turn.sessionKey);
  if (!store.get(turn.sessionKey)) return undefined;
  const agent = deps.config.agents.find((candidate) => candidate.id === turn.agentId);
  const cwd = agent?.workspace ?? process.cwd();
  const transcript = await store.openTranscriptAsync(turn.sessionKey, { cwd });
  return transcript.entries;
}

/** A ledger that keeps the turn's usage record instead of logging it: the record travels in the
 *  result and the gateway logs it (the budget's decision came with the turn). */
function capturingLedger(deps: AgentRuntimeDeps): {
  ledger: BudgetLedger;
  take: () => UsageRecord | undefined;
} {
  let captured: UsageRecord | undefined;
  const writer = {
    append: (record: UsageRecord) => {
      captured = record;
    },
    flush: async () => undefined,
    close: async () => undefined,
  };
  const now = () => deps.clock?.now() ?? Date.now();
  const ledger = new BudgetLedger({ stateDir: deps.paths.stateDir, writer, now });
  return { ledger, take: () => captured };
}

function abortedResult(runId: string, error: string): RunResult {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
  return { runId, status: "aborted", payloads: [], usage, durationMs: 0, failovers: [], error };
}

/** Publishes one run event; one too big for the server's max_payload (a huge tool result) goes
 *  without its `result`, and an event that still cannot go is dropped with a log line: the run and
 *  its transcript go on either way (the result and the transcript are what count). */
function publishEvent(params: {
  queue: NatsQueue;
  subject: string;
  event: EventMessage["event"];
  seq: number;
  log: Logger;
}): void {
  const { queue, subject, event, seq, log } = params;
  const runId = event.runId;
  try {
    queue.publish(subject, { runId, seq, event } satisfies EventMessage);
  } catch (err) {
    if (event.type === "tool_end" && event.result !== undefined) {
      const { result: _dropped, ...lean } = event;
      publishEvent({ ...params, event: lean });
      return;
    }
    log.warn({ type: event.type, error: String(err) }, "worker: run event not published");
  }
}

/** The run's steering inbox, subscribed to its steer subject (before the run's first event: the
 *  gateway starts steering when it sees one). */
function openSteering(params: {
  queue: NatsQueue;
  runId: string;
  taken: readonly string[];
  log: Logger;
}): { inbox: SteerInbox; stop: () => void } {
  const { queue, runId, log } = params;
  const subjects = signalSubjects(queue.settings);
  const inbox = new SteerInbox({
    taken: params.taken,
    onTaken: (id) => {
      try {
        queue.publish(subjects.steered(runId), { runId, id } satisfies SteeredAck);
      } catch (err) {
        // A closed connection: the result's steered list (the transcript) tells the gateway anyway.
        log.warn({ steer: id, error: String(err) }, "worker: steered ack not sent");
      }
    },
  });
  const stop = queue.subscribe(
    subjects.steer(runId),
    (data, _subject, respond) => {
      const parsed = parseSteer(data);
      if (!parsed.ok) {
        log.warn({ error: parsed.error }, "worker: malformed steer refused");
        respond?.({ id: "", status: "rejected", reason: parsed.error });
        return;
      }
      const reply = inbox.offer(parsed.value);
      log.debug({ steer: parsed.value.id, status: reply.status }, "worker: steer answered");
      respond?.(reply);
    },
    log,
  );
  return { inbox, stop };
}

/** Runs one delivered turn to its ack (or, when the session cannot be read, a delayed nak). */
export async function runDeliveredTurn(params: DeliveredTurn): Promise<void> {
  const { queue, deps, msg, turn, logger } = params;
  const subjects = signalSubjects(queue.settings);
  const log = logger.child({ runId: turn.runId, sessionKey: turn.sessionKey });
  // In-progress acks restart the ack timer: a turn longer than ackWaitMs is not redelivered while
  // this worker is alive; once it dies they stop and the server redelivers after ackWaitMs.
  const beat = setInterval(
    () => {
      try {
        msg.working();
      } catch (err) {
        // Closed connection: the turn will be redelivered; the run's own end reports the rest.
        log.debug({ error: String(err) }, "worker: in-progress ack not sent");
      }
    },
    Math.max(500, queue.settings.ackWaitMs / 3),
  );
  let stopSteering: (() => void) | undefined;
  try {
    const usage = capturingLedger(deps);
    const publishResult = async (result: RunResult, steered?: string[]) => {
      const record = usage.take();
      const message: ResultMessage = {
        runId: turn.runId,
        worker: params.workerId,
        result,
        ...(record ? { usage: record } : {}),
        ...(steered?.length ? { steered } : {}),
      };
      try {
        queue.publish(subjects.results, message);
      } catch (err) {
        // Too big for max_payload (the reply is in the transcript): an error the client can read,
        // rather than a redelivery that would fail the same way.
        log.error({ error: String(err) }, "worker: result not publishable; sending an error");
        const error = `the turn's result could not be sent over NATS (${String(err)}); see the session's history`;
        const failed: RunResult = { ...result, status: "error", payloads: [], error };
        delete failed.display;
        queue.publish(subjects.results, { ...message, result: failed });
      }
      await queue.flush();
      msg.ack();
    };
    if (params.signal.aborted) {
      await publishResult(abortedResult(turn.runId, "run aborted before it started"));
      return;
    }
    let entries: Awaited<ReturnType<typeof sessionEntries>>;
    try {
      entries = await sessionEntries(deps, turn);
    } catch (err) {
      // The store is unreachable (PostgreSQL down): give the turn back, to this or another worker.
      log.error({ error: String(err) }, "worker: session not readable; turn handed back");
      msg.nak(2000);
      return;
    }
    const plan = planDelivery({
      runId: turn.runId,
      entries,
      deliveries: msg.info.redeliveryCount,
      ...(turn.recovery ? { given: turn.recovery } : {}),
    });
    if (plan.found !== "absent")
      log.info({ found: plan.found }, "worker: turn seen before; resuming");
    log.debug({ delivery: msg.info.redeliveryCount }, "worker: turn started");
    const steering = openSteering({
      queue,
      runId: turn.runId,
      taken: steeredIds(entries ?? [], turn.runId),
      log,
    });
    stopSteering = steering.stop;
    const handle = runAgent(
      { ...deps, usage: usage.ledger },
      {
        runId: turn.runId,
        agentId: turn.agentId,
        sessionKey: turn.sessionKey,
        message: turn.message,
        signal: params.signal,
        steering: steering.inbox,
        ...(turn.images?.length ? { images: turn.images } : {}),
        ...(turn.timeoutSeconds !== undefined ? { timeoutSeconds: turn.timeoutSeconds } : {}),
        ...(turn.inboundKeys?.length ? { inboundKeys: turn.inboundKeys } : {}),
        ...(plan.recovery ? { recovery: plan.recovery } : {}),
        ...(turn.budget ? { budget: turn.budget } : {}),
      },
    );
    let seq = 0;
    for await (const event of handle.events) {
      publishEvent({ queue, subject: subjects.events(turn.runId), event, seq: seq++, log });
    }
    const result = await handle.result;
    // From now on a steer is refused: the gateway answers it with a follow-up turn.
    const steered = steering.inbox.close();
    if (result.status === "aborted" && params.stopping()) {
      // Cut by this worker's shutdown: another worker resumes it from the transcript.
      log.info("worker: stopping; turn handed back");
      msg.nak();
      return;
    }
    await publishResult(result, steered);
  } finally {
    clearInterval(beat);
    stopSteering?.();
  }
}
