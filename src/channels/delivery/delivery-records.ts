// The records of the delivery queue and what they fold into. A delivery is planned (all its parts,
// before the first is sent), then each part goes through attempt (the intent, on disk before the
// send) → sent | retry (certainly not arrived; next attempt time) | failed (dead letter), and an
// operator can requeue or drop a dead letter. Pure: no I/O here.
import type { OutboundMessage } from "../types.js";

/** A delivery as planned: every part, where it goes and what it answers. */
export interface PlannedDelivery {
  id: string;
  ts: number;
  channel: string;
  accountId: string;
  parts: OutboundMessage[];
  /** Inbound journal keys this reply answers (empty for operator sends and pairing codes). */
  inboundKeys: string[];
  agentId?: string;
  sessionKey?: string;
  runId?: string;
}

/** The plan of a delivery request (ids and timestamps from the queue). */
export function planDelivery(
  request: {
    channel: string;
    accountId: string;
    messages: readonly OutboundMessage[];
    inboundKeys?: readonly string[];
    agentId?: string;
    sessionKey?: string;
    runId?: string;
  },
  stamp: { id: string; ts: number },
): PlannedDelivery {
  return {
    id: stamp.id,
    ts: stamp.ts,
    channel: request.channel,
    accountId: request.accountId,
    parts: [...request.messages],
    inboundKeys: [...(request.inboundKeys ?? [])],
    ...(request.agentId ? { agentId: request.agentId } : {}),
    ...(request.sessionKey ? { sessionKey: request.sessionKey } : {}),
    ...(request.runId ? { runId: request.runId } : {}),
  };
}

/** The dead-letter record of a part's failure (an uncertain one is never `retryable`). */
export function failedRecord(params: {
  id: string;
  part: number;
  ts: number;
  attempts: number;
  failure: { message: string; code?: string; retryable: boolean; uncertain?: boolean };
}): DeliveryRecord {
  const { failure } = params;
  const uncertain = failure.uncertain === true;
  return {
    type: "failed",
    id: params.id,
    part: params.part,
    ts: params.ts,
    attempts: params.attempts,
    error: failure.message,
    ...(failure.code ? { code: failure.code } : {}),
    retryable: failure.retryable && !uncertain,
    uncertain,
  };
}

/** Where one part stands. `inflight`: its intent is recorded and no result is (yet). */
export type PartStatus =
  | { kind: "queued"; attempts: number; nextAttemptAt?: number; lastError?: string; code?: string }
  | { kind: "inflight"; attempts: number; at: number }
  | { kind: "sent"; attempts: number; at: number; messageId: string }
  | {
      kind: "failed";
      attempts: number;
      at: number;
      error: string;
      code?: string;
      retryable: boolean;
      uncertain: boolean;
    }
  | { kind: "dropped"; at: number };

/** A delivery with the status of each part. */
export interface StoredDelivery {
  plan: PlannedDelivery;
  parts: PartStatus[];
}

/** How a finished delivery ended, kept (without its text) so a restart knows what was answered. */
export interface DeliverySummary {
  id: string;
  inboundKeys: string[];
  agentId?: string;
  sessionKey?: string;
  failed: boolean;
}

/** One line of the queue file. */
export type DeliveryRecord =
  | { type: "planned"; ts: number; delivery: PlannedDelivery }
  | { type: "attempt"; id: string; part: number; ts: number; attempts: number }
  | { type: "sent"; id: string; part: number; ts: number; attempts: number; messageId: string }
  | {
      type: "retry";
      id: string;
      part: number;
      ts: number;
      attempts: number;
      nextAttemptAt?: number;
      error?: string;
      code?: string;
    }
  | {
      type: "failed";
      id: string;
      part: number;
      ts: number;
      attempts: number;
      error: string;
      code?: string;
      retryable: boolean;
      uncertain: boolean;
    }
  | { type: "requeued"; id: string; part: number; ts: number }
  | { type: "dropped"; id: string; part: number; ts: number }
  | ({ type: "done"; ts: number } & DeliverySummary);

/** Everything the records say: live deliveries and summaries of finished ones, oldest first. */
export interface DeliveryState {
  deliveries: Map<string, StoredDelivery>;
  summaries: Map<string, DeliverySummary>;
}

/** An empty state. */
export function emptyDeliveryState(): DeliveryState {
  return { deliveries: new Map(), summaries: new Map() };
}

/** True once no part can be sent any more and none waits for an operator (all sent or dropped). */
export function isFinished(delivery: StoredDelivery): boolean {
  return delivery.parts.every((part) => part.kind === "sent" || part.kind === "dropped");
}

/** The summary a finished delivery leaves behind. */
export function summarize(delivery: StoredDelivery): DeliverySummary {
  const { plan } = delivery;
  return {
    id: plan.id,
    inboundKeys: plan.inboundKeys,
    ...(plan.agentId ? { agentId: plan.agentId } : {}),
    ...(plan.sessionKey ? { sessionKey: plan.sessionKey } : {}),
    failed: delivery.parts.some((part) => part.kind === "dropped"),
  };
}

function statusOf(record: DeliveryRecord): PartStatus | undefined {
  switch (record.type) {
    case "attempt":
      return { kind: "inflight", attempts: record.attempts, at: record.ts };
    case "sent":
      return {
        kind: "sent",
        attempts: record.attempts,
        at: record.ts,
        messageId: record.messageId,
      };
    case "retry":
      return {
        kind: "queued",
        attempts: record.attempts,
        ...(record.nextAttemptAt !== undefined ? { nextAttemptAt: record.nextAttemptAt } : {}),
        ...(record.error ? { lastError: record.error } : {}),
        ...(record.code ? { code: record.code } : {}),
      };
    case "failed": {
      const { type: _type, id: _id, part: _part, ts, ...rest } = record;
      return { kind: "failed", at: ts, ...rest };
    }
    case "requeued":
      return { kind: "queued", attempts: 0 };
    case "dropped":
      return { kind: "dropped", at: record.ts };
    default:
      return undefined;
  }
}

/** Applies one record to the state (records of unknown deliveries or parts are ignored). */
export function applyRecord(state: DeliveryState, record: DeliveryRecord): void {
  if (record.type === "planned") {
    const parts: PartStatus[] = record.delivery.parts.map(() => ({ kind: "queued", attempts: 0 }));
    state.deliveries.set(record.delivery.id, { plan: record.delivery, parts });
    return;
  }
  if (record.type === "done") {
    const { type: _type, ts: _ts, ...summary } = record;
    state.deliveries.delete(record.id);
    state.summaries.delete(record.id);
    // Only a reply tells a restart something (which inbound messages it answered).
    if (summary.inboundKeys.length > 0) state.summaries.set(record.id, summary);
    return;
  }
  const delivery = state.deliveries.get(record.id);
  const status = statusOf(record);
  if (!delivery || !status || record.part < 0 || record.part >= delivery.parts.length) return;
  delivery.parts[record.part] = status;
}

/** Parses one line; undefined for a torn or foreign line. */
export function parseDeliveryRecord(line: string): DeliveryRecord | undefined {
  try {
    const record = JSON.parse(line) as DeliveryRecord;
    if (!record || typeof record !== "object" || typeof record.type !== "string") return undefined;
    if (record.type === "planned")
      return typeof record.delivery?.id === "string" && Array.isArray(record.delivery.parts)
        ? record
        : undefined;
    if (typeof (record as { id?: unknown }).id !== "string") return undefined;
    if (record.type === "done") return Array.isArray(record.inboundKeys) ? record : undefined;
    return Number.isInteger((record as { part?: unknown }).part) ? record : undefined;
  } catch {
    // A line cut by a crash mid-write: the caller counts it and the compaction drops it.
    return undefined;
  }
}

function partRecord(id: string, part: number, status: PartStatus, ts: number): DeliveryRecord[] {
  switch (status.kind) {
    case "queued":
      if (status.attempts === 0 && status.nextAttemptAt === undefined) return [];
      return [
        {
          type: "retry",
          id,
          part,
          ts,
          attempts: status.attempts,
          ...(status.nextAttemptAt !== undefined ? { nextAttemptAt: status.nextAttemptAt } : {}),
          ...(status.lastError ? { error: status.lastError } : {}),
          ...(status.code ? { code: status.code } : {}),
        },
      ];
    case "inflight":
      // Kept as is: the intent without a result must stay uncertain through a compaction.
      return [{ type: "attempt", id, part, ts: status.at, attempts: status.attempts }];
    case "sent":
      return [
        {
          type: "sent",
          id,
          part,
          ts: status.at,
          attempts: status.attempts,
          messageId: status.messageId,
        },
      ];
    case "failed": {
      const { kind: _kind, at, ...rest } = status;
      return [{ type: "failed", id, part, ts: at, ...rest }];
    }
    case "dropped":
      return [{ type: "dropped", id, part, ts: status.at }];
  }
}

/** The records that rebuild `state`: live deliveries in full, the newest `keepSummaries` summaries. */
export function stateRecords(
  state: DeliveryState,
  params: { ts: number; keepSummaries: number },
): DeliveryRecord[] {
  const summaries = [...state.summaries.values()].slice(-params.keepSummaries);
  const records: DeliveryRecord[] = summaries.map((summary) => ({
    type: "done",
    ts: params.ts,
    ...summary,
  }));
  for (const delivery of state.deliveries.values()) {
    records.push({ type: "planned", ts: delivery.plan.ts, delivery: delivery.plan });
    delivery.parts.forEach((status, index) => {
      records.push(...partRecord(delivery.plan.id, index, status, params.ts));
    });
  }
  return records;
}
