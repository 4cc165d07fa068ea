// Which inbound messages a recorded delivery already answers, by inbound journal key, so a restart
// (or a platform redelivering a message whose journal line a power loss took) never runs them again:
// live deliveries and the summaries of finished ones. The index is rebuilt after each compaction of
// the queue file, so it stays as small as what the file keeps.
import type { DeliveryState, StoredDelivery } from "./delivery-records.js";

/** How a recorded delivery answered an inbound message (the inbound journal's settle outcome). */
export type CoverageOutcome = "replied" | "delivery-failed" | "delivery-queued";

/** A recorded delivery that answers an inbound message, for one agent session. */
export interface DeliveryCoverage {
  deliveryId: string;
  agentId?: string;
  sessionKey?: string;
  outcome: CoverageOutcome;
}

function outcomeOf(delivery: StoredDelivery): CoverageOutcome {
  const kinds = new Set(delivery.parts.map((part) => part.kind));
  if (kinds.has("failed") || kinds.has("dropped")) return "delivery-failed";
  if (kinds.has("queued") || kinds.has("inflight")) return "delivery-queued";
  return "replied";
}

/** The coverage a delivery (live or finished) gives, looked up by delivery id. */
export function coverageOf(state: DeliveryState, deliveryId: string): DeliveryCoverage | undefined {
  const live = state.deliveries.get(deliveryId);
  if (live) {
    return {
      deliveryId,
      ...(live.plan.agentId ? { agentId: live.plan.agentId } : {}),
      ...(live.plan.sessionKey ? { sessionKey: live.plan.sessionKey } : {}),
      outcome: outcomeOf(live),
    };
  }
  const summary = state.summaries.get(deliveryId);
  if (!summary) return undefined;
  return {
    deliveryId,
    ...(summary.agentId ? { agentId: summary.agentId } : {}),
    ...(summary.sessionKey ? { sessionKey: summary.sessionKey } : {}),
    outcome: summary.failed ? "delivery-failed" : "replied",
  };
}

/** The inbound-key index of a queue's state. */
export interface CoverageIndex {
  /** Adds a delivery's inbound keys (idempotent). */
  add(plan: { id: string; inboundKeys: readonly string[] }): void;
  /** Forgets everything and indexes `state` again. */
  rebuild(state: DeliveryState): void;
  /** Recorded deliveries answering `inboundKey`. */
  lookup(state: DeliveryState, inboundKey: string): DeliveryCoverage[];
}

/** Creates an empty index. */
export function createCoverageIndex(): CoverageIndex {
  const byInbound = new Map<string, string[]>();
  const index: CoverageIndex = {
    add(plan) {
      for (const key of plan.inboundKeys) {
        const ids = byInbound.get(key) ?? [];
        if (!ids.includes(plan.id)) byInbound.set(key, [...ids, plan.id]);
      }
    },
    rebuild(state) {
      byInbound.clear();
      for (const summary of state.summaries.values()) index.add(summary);
      for (const { plan } of state.deliveries.values()) index.add(plan);
    },
    lookup: (state, inboundKey) =>
      (byInbound.get(inboundKey) ?? []).flatMap((id) => coverageOf(state, id) ?? []),
  };
  return index;
}
