// Steer mode for a run on a worker. Once the run's first event shows it running on a worker, every
// message steered into it is drained from the session's queue and sent, with a stable id, to
// `<prefix>.steer.<runId>` (a request only that worker answers). The truth about what the run took
// is its result's `steered` list (its transcript's steer entries, earlier deliveries' included):
// whatever the run did not take goes back to the queue and is answered by a follow-up turn right
// after it, as if it had never been steered. A refusal ("the run has ended") or no responder (the run
// runs nowhere now) gives it back at once; no answer in time leaves it to the result. A run that ends
// without a result (chat.abort here, the gateway stopping) keeps what the worker acked as taken.
import type { Logger } from "../../lib/logger.js";
import type { InboundMessage } from "../../runtime/lanes/coalesce.js";
import type { SteeringSource } from "../../runtime/lanes/steering.js";
import type { RequestOutcome } from "../queue/nats-queue.js";
import { parseSteerReply, type SteerMessage } from "../queue/wire.js";

/** How long the gateway waits for a worker's answer to a steer (then the run's result decides). */
export const STEER_ANSWER_MS = 2000;

/** A steering source a run elsewhere can use: it tells when a message comes and takes one back. */
export type RemoteSteeringSource = SteeringSource &
  Required<Pick<SteeringSource, "watchSteering" | "restoreSteering">>;

/** The steering source of a run, if it can steer a run elsewhere. */
export function remoteSteeringOf(
  source: SteeringSource | undefined,
): RemoteSteeringSource | undefined {
  if (!source?.watchSteering || !source.restoreSteering) return undefined;
  return source as RemoteSteeringSource;
}

/** What a relay needs: the run, its steering source, and the request to its worker. */
export interface SteerRelayParams {
  runId: string;
  source: RemoteSteeringSource;
  /** Sends a steer to the worker running the run (NatsQueue.request on its steer subject). */
  send: (steer: SteerMessage, timeoutMs: number) => Promise<RequestOutcome>;
  logger: Logger;
  answerMs?: number;
}

interface Forwarded {
  id: string;
  message: InboundMessage;
  /** "taken": the worker acked it as injected; the others wait for the result. */
  fate: "sent" | "held" | "unanswered" | "taken";
}

/** The steering of one run on a worker; see the module comment. */
export class SteerRelay {
  private readonly forwarded = new Map<string, Forwarded>();
  private next = 0;
  private started = false;
  private settled = false;
  private unwatch: (() => void) | undefined;

  constructor(private readonly params: SteerRelayParams) {}

  /** The run is on a worker (its first event came): steering waiting in the queue goes now, and
   *  every later message as it is steered in. Idempotent. */
  start(): void {
    if (this.started || this.settled) return;
    this.started = true;
    this.unwatch = this.params.source.watchSteering(() => this.take());
    this.take();
  }

  private take(): void {
    if (this.settled) return;
    for (const message of this.params.source.drainSteering()) this.forward(message);
  }

  private forward(message: InboundMessage): void {
    const { runId } = this.params;
    const entry: Forwarded = { id: `${runId}.s${this.next++}`, message, fate: "sent" };
    this.forwarded.set(entry.id, entry);
    const steer: SteerMessage = {
      v: 1,
      runId,
      id: entry.id,
      text: message.text,
      ...(message.images?.length ? { images: message.images } : {}),
      ...(message.receivedAt !== undefined ? { receivedAt: message.receivedAt } : {}),
    };
    void this.params
      .send(steer, this.params.answerMs ?? STEER_ANSWER_MS)
      .then((outcome) => this.answered(entry, outcome));
  }

  private answered(entry: Forwarded, outcome: RequestOutcome): void {
    if (this.settled || this.forwarded.get(entry.id) !== entry || entry.fate === "taken") return;
    const log = this.params.logger;
    if (!outcome.ok) {
      if (outcome.reason === "timeout") {
        // It may have been taken: the result's steered list decides.
        entry.fate = "unanswered";
        log.warn({ runId: this.params.runId, steer: entry.id }, "steer not answered in time");
        return;
      }
      this.giveBack(entry, outcome.error);
      return;
    }
    const reply = parseSteerReply(outcome.data);
    if (!reply.ok) {
      entry.fate = "unanswered";
      log.warn({ steer: entry.id, error: reply.error }, "run queue: malformed steer reply");
    } else if (reply.value.status === "rejected") {
      this.giveBack(entry, reply.value.reason ?? "refused by the worker");
    } else {
      entry.fate = "held";
    }
  }

  private giveBack(entry: Forwarded, why: string): void {
    this.forwarded.delete(entry.id);
    this.params.logger.debug(
      { runId: this.params.runId, steer: entry.id, why },
      "steer not taken by the run; answered by a follow-up turn",
    );
    this.params.source.restoreSteering([entry.message]);
  }

  /** The worker acked steer `id` as injected into the run. */
  taken(id: string): void {
    const entry = this.forwarded.get(id);
    if (entry && !this.settled) entry.fate = "taken";
  }

  /** The run ended. `steered`: its result's list (the transcript's truth); absent (no result: aborted
   *  here, the gateway stopping), what the worker acked as taken. The rest goes back to the queue. */
  settle(steered?: readonly string[]): void {
    if (this.settled) return;
    this.settled = true;
    this.unwatch?.();
    const took = steered ? new Set(steered) : undefined;
    const back = [...this.forwarded.values()]
      .filter((entry) => (took ? !took.has(entry.id) : entry.fate !== "taken"))
      .map((entry) => entry.message);
    this.forwarded.clear();
    if (back.length > 0) this.params.source.restoreSteering(back);
  }
}
