// A run's steering inbox on a worker: the gateway's steers (`<prefix>.steer.<runId>`) wait here
// until the run's loop drains them (after a tool call or a model call, exactly as in-process steer
// mode), each id taken once. Ids already in the transcript (an earlier delivery took them) count as
// taken. Once the run ends the inbox refuses: the gateway answers those with a follow-up turn.
import type { InboundMessage } from "../../runtime/lanes/coalesce.js";
import type { SteeringSource } from "../../runtime/lanes/steering.js";
import type { SteerMessage, SteerReply } from "../queue/wire.js";

/** Inputs of {@link SteerInbox}. */
export interface SteerInboxParams {
  /** Steer ids of this run its transcript already records (steered-entries.ts). */
  taken: readonly string[];
  /** Called as the run takes a steer (the worker acks it to the gateway). */
  onTaken: (id: string) => void;
}

/** The steering source of a run on a worker; see the module comment. */
export class SteerInbox implements SteeringSource {
  private readonly waiting: SteerMessage[] = [];
  private readonly known: Set<string>;
  private readonly took: string[];
  private open = true;

  constructor(private readonly params: SteerInboxParams) {
    this.known = new Set(params.taken);
    this.took = [...params.taken];
  }

  /** A steer from the gateway: held for the run's next steering check, unless known or ended. */
  offer(steer: SteerMessage): SteerReply {
    if (this.known.has(steer.id)) return { id: steer.id, status: "duplicate" };
    if (!this.open) return { id: steer.id, status: "rejected", reason: "the run has ended" };
    this.known.add(steer.id);
    this.waiting.push(steer);
    return { id: steer.id, status: "accepted" };
  }

  /** True while steers wait (the loop then skips the rest of the tool calls, as in-process). */
  hasPendingSteering(): boolean {
    return this.open && this.waiting.length > 0;
  }

  /** The waiting steers as inbound messages carrying their steer id (recorded on their entries). */
  drainSteering(): InboundMessage[] {
    if (!this.open) return [];
    const out = this.waiting.splice(0);
    for (const steer of out) {
      this.took.push(steer.id);
      this.params.onTaken(steer.id);
    }
    return out.map((steer) => ({
      text: steer.text,
      steerId: steer.id,
      ...(steer.images?.length ? { images: steer.images } : {}),
      ...(steer.receivedAt !== undefined ? { receivedAt: steer.receivedAt } : {}),
    }));
  }

  /** The run ended: refuse from now on; returns every steer id the run took, in order. */
  close(): string[] {
    this.open = false;
    this.waiting.length = 0;
    return [...this.took];
  }
}
