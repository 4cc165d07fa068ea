// Read views of the delivery queue's state: the entries `pincer channels failures` lists (dead
// letters, uncertain parts, parts waiting for a retry), per-account counts for `channels status`,
// and the selection of entries a retry or drop acts on. Pure.
import type { OutboundMessage } from "../types.js";
import type { DeliveryState, PartStatus, StoredDelivery } from "./delivery-records.js";

/** Where a listed part stands: waiting in the queue, being sent, dead-lettered, or of unknown fate. */
export type DeliveryEntryState = "queued" | "sending" | "failed" | "uncertain";

/** One part as `channels.failures.list` shows it. */
export interface DeliveryEntry {
  /** `<deliveryId>.<part>`: what `retry` / `drop` take. */
  id: string;
  deliveryId: string;
  /** 1-based position of the part in its delivery, and the delivery's part count. */
  part: number;
  parts: number;
  state: DeliveryEntryState;
  channel: string;
  accountId: string;
  peer: OutboundMessage["target"]["peer"];
  threadId?: string;
  /** The platform message the part replies to (the inbound message it answers). */
  replyToId?: string;
  agentId?: string;
  sessionKey?: string;
  runId?: string;
  plannedAt: number;
  attempts: number;
  nextAttemptAt?: number;
  failedAt?: number;
  error?: string;
  code?: string;
  /** For a dead letter: true when it certainly did not arrive (a retry cannot double it). */
  retryable?: boolean;
  text?: string;
  media?: string[];
}

/** Queued, failed and uncertain parts of one account. */
export interface DeliveryCounts {
  queued: number;
  failed: number;
  uncertain: number;
}

/** The id of part `index` (0-based) of a delivery. */
export function partId(deliveryId: string, index: number): string {
  return `${deliveryId}.${index + 1}`;
}

/** Splits a part id; undefined when it is not one. */
export function parsePartId(id: string): { deliveryId: string; index: number } | undefined {
  const dot = id.lastIndexOf(".");
  const index = Number(id.slice(dot + 1)) - 1;
  if (dot <= 0 || !Number.isInteger(index) || index < 0) return undefined;
  return { deliveryId: id.slice(0, dot), index };
}

function entryState(status: PartStatus): DeliveryEntryState | undefined {
  if (status.kind === "queued") return "queued";
  if (status.kind === "inflight") return "sending";
  if (status.kind === "failed") return status.uncertain ? "uncertain" : "failed";
  return undefined;
}

function entryOf(delivery: StoredDelivery, index: number): DeliveryEntry | undefined {
  const status = delivery.parts[index]!;
  const state = entryState(status);
  if (!state) return undefined;
  const { plan } = delivery;
  const message = plan.parts[index]!;
  const media = (message.media ?? []).map((item) => item.url ?? item.path ?? "");
  return {
    id: partId(plan.id, index),
    deliveryId: plan.id,
    part: index + 1,
    parts: plan.parts.length,
    state,
    channel: plan.channel,
    accountId: plan.accountId,
    peer: message.target.peer,
    ...(message.target.threadId ? { threadId: message.target.threadId } : {}),
    ...(message.target.replyToId ? { replyToId: message.target.replyToId } : {}),
    ...(plan.agentId ? { agentId: plan.agentId } : {}),
    ...(plan.sessionKey ? { sessionKey: plan.sessionKey } : {}),
    ...(plan.runId ? { runId: plan.runId } : {}),
    plannedAt: plan.ts,
    attempts: status.kind === "dropped" ? 0 : status.attempts,
    ...(status.kind === "queued" && status.nextAttemptAt !== undefined
      ? { nextAttemptAt: status.nextAttemptAt }
      : {}),
    ...(status.kind === "queued" && status.lastError ? { error: status.lastError } : {}),
    ...(status.kind === "failed"
      ? {
          failedAt: status.at,
          error: status.error,
          retryable: status.retryable,
          ...(status.code ? { code: status.code } : {}),
        }
      : {}),
    ...(message.text ? { text: message.text } : {}),
    ...(media.length ? { media } : {}),
  };
}

/** Every part that is not sent or dropped, oldest delivery first. */
export function listDeliveryEntries(state: DeliveryState): DeliveryEntry[] {
  const entries: DeliveryEntry[] = [];
  for (const delivery of state.deliveries.values()) {
    delivery.parts.forEach((_status, index) => {
      const entry = entryOf(delivery, index);
      if (entry) entries.push(entry);
    });
  }
  return entries;
}

/** Counts of one account's queued / failed / uncertain parts. */
export function countDeliveries(
  state: DeliveryState,
  channel: string,
  accountId: string,
): DeliveryCounts {
  const counts: DeliveryCounts = { queued: 0, failed: 0, uncertain: 0 };
  for (const { plan, parts } of state.deliveries.values()) {
    if (plan.channel !== channel || plan.accountId !== accountId) continue;
    for (const status of parts) {
      if (status.kind === "queued" || status.kind === "inflight") counts.queued += 1;
      else if (status.kind === "failed" && status.uncertain) counts.uncertain += 1;
      else if (status.kind === "failed") counts.failed += 1;
    }
  }
  return counts;
}

/** Which entries a retry or drop names: `ids`, or every dead letter with `all`. */
export interface EntrySelector {
  ids?: readonly string[];
  all?: boolean;
}

/** Parts a selector matched, and the ids it could not act on (with why). */
export interface EntrySelection {
  matched: Array<{ delivery: StoredDelivery; index: number; id: string }>;
  refused: Array<{ id: string; reason: string }>;
}

/** Resolves a selector against the state; `accept` says which part states the action takes. */
export function selectEntries(
  state: DeliveryState,
  selector: EntrySelector,
  accept: ReadonlyArray<PartStatus["kind"]>,
): EntrySelection {
  const selection: EntrySelection = { matched: [], refused: [] };
  if (selector.all) {
    for (const delivery of state.deliveries.values()) {
      delivery.parts.forEach((status, index) => {
        if (status.kind === "failed")
          selection.matched.push({ delivery, index, id: partId(delivery.plan.id, index) });
      });
    }
    return selection;
  }
  for (const id of new Set(selector.ids ?? [])) {
    const parsed = parsePartId(id);
    const delivery = parsed ? state.deliveries.get(parsed.deliveryId) : undefined;
    const status = parsed && delivery ? delivery.parts[parsed.index] : undefined;
    if (!parsed || !delivery || !status) {
      selection.refused.push({ id, reason: "no such delivery in the queue" });
    } else if (!accept.includes(status.kind)) {
      selection.refused.push({ id, reason: `it is ${entryState(status) ?? status.kind}` });
    } else selection.matched.push({ delivery, index: parsed.index, id });
  }
  return selection;
}
