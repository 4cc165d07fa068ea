// What delivering a reply means to its callers (the dispatcher, `send`, pairing codes): the
// request (parts addressed to one conversation, and what they answer) and the report (sent now,
// dead-lettered, or still queued behind a retry wait). The queue (`delivery-queue.ts`) does it.
import type { OutboundMessage, SendReceipt } from "../types.js";
import type { DeliveryFailureRecord } from "./failure-log.js";

/** Inputs of a delivery: the planned parts of one reply, in order. */
export interface DeliverParams {
  channel: string;
  accountId: string;
  messages: readonly OutboundMessage[];
  /** Inbound journal keys this reply answers (a restart then does not run them again). */
  inboundKeys?: readonly string[];
  agentId?: string;
  sessionKey?: string;
  runId?: string;
}

/** What became of a delivery's parts by the time `deliver` resolved. */
export interface DeliveryReport {
  /** Receipts of the parts sent. */
  sent: SendReceipt[];
  /** Dead letters (rejected, retries exhausted, or outcome unknown), each recorded and reported. */
  failed: DeliveryFailureRecord[];
  /** Ids of parts still in the queue, waiting out a retry (or behind one): sent later. */
  queued: string[];
  /** The delivery could not be recorded, so nothing of it was sent (each part is reported as
   *  failed): answering its message again after a restart cannot double anything. */
  unrecorded?: boolean;
}

/** Anything that delivers (the queue, or a stand-in). */
export interface Deliverer {
  deliver(params: DeliverParams): Promise<DeliveryReport>;
}
