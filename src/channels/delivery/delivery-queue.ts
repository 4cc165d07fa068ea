// The durable outbound queue: every delivery is planned on disk before its first part is sent, each
// part's intent is fsynced before its send and its result recorded after, so a crash never sends a
// part twice (a part whose intent has no result is reported as uncertain, never re-sent) and never
// forgets one (a planned part that was never attempted is sent after the restart). Parts go out in
// order per conversation; a failure that says the message did not arrive waits out the platform's
// `retry_after` or the backoff (persisted: a restart keeps the schedule) and only then dead-letters.
// Dead letters are listed, retried or dropped by the operator (`pincer channels failures`).
import { randomBytes } from "node:crypto";
import type {
  ChannelAccountRuntime,
  Logger,
  OutboundMessage,
  SendFailure,
  SendReceipt,
  SendResult,
} from "../types.js";
import { INTERRUPTED_FAILURE, reportDeadLetter } from "./dead-letter.js";
import type { DeliverParams, DeliveryReport } from "./deliver.js";
import type { DeliveryClock } from "./delivery-clock.js";
import { createCoverageIndex, type DeliveryCoverage } from "./delivery-coverage.js";
import {
  countDeliveries,
  type DeliveryCounts,
  type DeliveryEntry,
  type EntrySelection,
  type EntrySelector,
  listDeliveryEntries,
  partId,
  selectEntries,
} from "./delivery-entries.js";
import {
  applyRecord,
  type DeliveryRecord,
  failedRecord,
  isFinished,
  type PlannedDelivery,
  planDelivery,
  type StoredDelivery,
  summarize,
} from "./delivery-records.js";
import { openDeliveryStore } from "./delivery-store.js";
import type { DeliveryFailureRecord } from "./failure-log.js";
import { attemptSend, nextRetryDelay, type RetryPolicy } from "./send-retry.js";
import type { SentPart } from "./sent-receipts.js";

/** What the queue needs from the host. */
export interface DeliveryQueueDeps {
  stateDir: string;
  clock: DeliveryClock;
  log: Logger;
  /** Broadcasts a gateway event (`delivery.failed`). */
  emit: (event: string, payload: unknown) => void;
  /** The running account, looked up at each attempt (an account may restart in between). */
  runtimeFor: (
    channel: string,
    accountId: string,
  ) => Pick<ChannelAccountRuntime, "send"> | undefined;
  policyFor: (channel: string, accountId: string) => RetryPolicy;
  random?: () => number;
  newId?: () => string;
  /** Called after every successful send (status: lastOutboundAt; receipts by message id). */
  onSent?: (
    channel: string,
    message: OutboundMessage,
    receipt: SendReceipt,
    sent: SentPart,
  ) => void;
  /** Called for every dead letter (status: lastError). */
  onFailed?: (record: DeliveryFailureRecord) => void;
}

/** Result of a retry or drop: the ids acted on, or (nothing changed) the ones refused and why. */
export type EntryActionResult =
  | { ok: true; ids: string[] }
  | { ok: false; refused: EntrySelection["refused"] };

/** The open queue. */
export interface DeliveryQueue {
  /** Plans and sends; resolves once every part is sent or dead-lettered, or waits in the queue. */
  deliver(params: DeliverParams): Promise<DeliveryReport>;
  /** Recorded deliveries answering an inbound message (by its journal key). */
  covered(inboundKey: string): DeliveryCoverage[];
  /** Reports the parts a crash cut mid-send (intent, no result) as uncertain dead letters. */
  reportInterrupted(): void;
  /** Sends what waits for this account (after it started). */
  resume(channel: string, accountId: string): void;
  entries(): DeliveryEntry[];
  counts(channel: string, accountId: string): DeliveryCounts;
  /** Puts dead letters back in the queue (an uncertain one may then arrive twice: operator's call). */
  retry(selector: EntrySelector): EntryActionResult;
  /** Removes dead letters or waiting parts for good. */
  drop(selector: EntrySelector): EntryActionResult;
  /** A part the platform took and later said it could not deliver: planned again on its own and
   *  dead-lettered at once, so `channels failures` lists it (and can retry it). */
  failAfterSend(sent: SentPart, failure: SendFailure): void;
  /** Cuts retry waits (those parts stay queued for the next start), lets sends in flight finish. */
  stop(): Promise<void>;
}

interface Conversation {
  key: string;
  fifo: string[];
  running?: Promise<void>;
  waiting: boolean;
  wake: AbortController;
}

interface Waiter {
  resolve: (report: DeliveryReport) => void;
  report: DeliveryReport;
}

/** Longest single timer (setTimeout's limit); longer waits sleep again. */
const MAX_SLEEP_MS = 2 ** 31 - 1;

function conversationKey(plan: PlannedDelivery): string {
  const target = plan.parts[0]?.target;
  const peer = target ? `${target.peer.kind}:${target.peer.id}` : "";
  return [plan.channel, plan.accountId, peer, target?.threadId ?? ""].join("|");
}

/** Opens the queue of `deps.stateDir` (repairing a torn last line). */
export function openDeliveryQueue(deps: DeliveryQueueDeps): DeliveryQueue {
  const { clock, log } = deps;
  const random = deps.random ?? Math.random;
  const newId = deps.newId ?? (() => randomBytes(5).toString("hex"));
  const coverage = createCoverageIndex();
  const store = openDeliveryStore({
    stateDir: deps.stateDir,
    now: () => clock.now(),
    onCompact: (compacted) => coverage.rebuild(compacted),
  });
  if (store.torn > 0)
    log.warn({ path: store.path, torn: store.torn }, "delivery queue: torn lines skipped");
  const { state } = store;
  const conversations = new Map<string, Conversation>();
  const waiters = new Map<string, Waiter>();
  const inflight = new Set<Promise<SendResult>>();
  let stopped = false;
  coverage.rebuild(state);
  // Parts a previous process was sending when it died: reported by `reportInterrupted`.
  const interrupted = [...state.deliveries.values()].flatMap((delivery) =>
    delivery.parts.flatMap((status, at) => (status.kind === "inflight" ? [{ delivery, at }] : [])),
  );

  /** Writes a record (applying it even when the disk refuses: memory stays truthful). */
  const persist = (record: DeliveryRecord, durable: boolean): boolean => {
    try {
      store.append(record, { durable });
      return true;
    } catch (err) {
      log.error(
        { path: store.path, record: record.type, error: String(err) },
        "delivery queue: record not written",
      );
      applyRecord(state, record);
      return false;
    }
  };

  const conversationOf = (plan: PlannedDelivery): Conversation => {
    const key = conversationKey(plan);
    let conv = conversations.get(key);
    if (!conv) {
      conv = { key, fifo: [], waiting: false, wake: new AbortController() };
      conversations.set(key, conv);
    }
    return conv;
  };

  const release = (id: string) => {
    const waiter = waiters.get(id);
    if (!waiter) return;
    waiters.delete(id);
    const delivery = state.deliveries.get(id);
    waiter.report.queued = delivery
      ? delivery.parts.flatMap((p, i) =>
          p.kind === "queued" || p.kind === "inflight" ? [partId(id, i)] : [],
        )
      : [];
    waiter.resolve(waiter.report);
  };

  /** A delivery left its conversation's queue: finished ones shrink to a summary. */
  const leave = (id: string) => {
    const delivery = state.deliveries.get(id);
    if (delivery && isFinished(delivery))
      persist({ type: "done", ts: clock.now(), ...summarize(delivery) }, false);
    release(id);
  };

  const deadLetter = (
    delivery: StoredDelivery,
    at: number,
    failure: SendFailure,
    attempts: number,
  ) => {
    const { plan } = delivery;
    const ts = clock.now();
    persist(failedRecord({ id: plan.id, part: at, ts, attempts, failure }), true);
    const record = reportDeadLetter({ sinks: deps, plan, at, failure, attempts, ts });
    waiters.get(plan.id)?.report.failed.push(record);
  };

  const send = async (plan: PlannedDelivery, at: number, attempts: number): Promise<SendResult> => {
    const runtime = deps.runtimeFor(plan.channel, plan.accountId);
    if (!runtime) {
      const message = `account ${plan.channel}/${plan.accountId} is not running`;
      return { ok: false, failure: { message, retryable: true, code: "account_not_running" } };
    }
    // The intent, durable before the send: after a crash this part is uncertain, never re-sent.
    if (!persist({ type: "attempt", id: plan.id, part: at, ts: clock.now(), attempts }, true)) {
      // Not recorded, so not sent; the memory copy must not claim it was tried.
      state.deliveries.get(plan.id)!.parts[at] = { kind: "queued", attempts: attempts - 1 };
      const message = "delivery queue not writable";
      return { ok: false, failure: { message, retryable: true, code: "queue_unwritable" } };
    }
    const sending = attemptSend(runtime, plan.parts[at]!);
    inflight.add(sending);
    try {
      return await sending;
    } finally {
      inflight.delete(sending);
    }
  };

  const attempt = async (delivery: StoredDelivery, at: number, attempts: number) => {
    const { plan } = delivery;
    const result = await send(plan, at, attempts);
    const ts = clock.now();
    if (result.ok) {
      const { messageId } = result.receipt;
      persist({ type: "sent", id: plan.id, part: at, ts, attempts, messageId }, false);
      deps.onSent?.(plan.channel, plan.parts[at]!, result.receipt, { plan, at });
      waiters.get(plan.id)?.report.sent.push(result.receipt);
      return;
    }
    const { failure } = result;
    const policy = deps.policyFor(plan.channel, plan.accountId);
    const delay = nextRetryDelay({ policy, attempts, failure, random });
    if (delay === undefined) return deadLetter(delivery, at, failure, attempts);
    const nextAttemptAt = ts + delay;
    const record: DeliveryRecord = {
      type: "retry",
      id: plan.id,
      part: at,
      ts,
      attempts,
      nextAttemptAt,
      error: failure.message,
      ...(failure.code ? { code: failure.code } : {}),
    };
    persist(record, true);
    log.warn(
      { id: partId(plan.id, at), error: failure.message, attempts, retryInMs: delay },
      "delivery will be retried",
    );
  };

  const drain = async (conv: Conversation) => {
    while (!stopped) {
      const id = conv.fifo[0];
      if (id === undefined) break;
      const delivery = state.deliveries.get(id);
      const at = delivery ? delivery.parts.findIndex((p) => p.kind === "queued") : -1;
      if (!delivery || at < 0) {
        conv.fifo.shift();
        leave(id);
        continue;
      }
      const status = delivery.parts[at] as Extract<
        StoredDelivery["parts"][number],
        { kind: "queued" }
      >;
      const wait = (status.nextAttemptAt ?? 0) - clock.now();
      if (wait > 0) {
        // Everyone queued behind a wait hears so now; the wait itself can be minutes.
        conv.waiting = true;
        for (const queued of conv.fifo) release(queued);
        await clock.sleep(Math.min(wait, MAX_SLEEP_MS), conv.wake.signal);
        conv.waiting = false;
        if (conv.wake.signal.aborted && !stopped) conv.wake = new AbortController();
        continue;
      }
      await attempt(delivery, at, status.attempts + 1);
    }
  };

  const kick = (conv: Conversation) => {
    if (conv.running || stopped) return;
    conv.running = drain(conv)
      .catch((err: unknown) =>
        log.error({ conversation: conv.key, error: String(err) }, "delivery worker failed"),
      )
      .finally(() => {
        conv.running = undefined;
        if (conv.fifo.length === 0) conversations.delete(conv.key);
      });
  };

  const enqueue = (plan: PlannedDelivery) => {
    const conv = conversationOf(plan);
    if (!conv.fifo.includes(plan.id)) conv.fifo.push(plan.id);
    return conv;
  };
  // What a previous process left queued goes first, in its order, once its account runs; what it
  // finished without saying so shrinks to its summary.
  for (const delivery of [...state.deliveries.values()]) {
    if (delivery.parts.some((p) => p.kind === "queued")) enqueue(delivery.plan);
    else if (isFinished(delivery)) leave(delivery.plan.id);
  }

  const act = (
    selection: EntrySelection,
    apply: (item: EntrySelection["matched"][number]) => void,
  ): EntryActionResult => {
    if (selection.refused.length > 0) return { ok: false, refused: selection.refused };
    for (const item of selection.matched) apply(item);
    return { ok: true, ids: selection.matched.map((item) => item.id) };
  };

  return {
    async deliver(params) {
      const report: DeliveryReport = { sent: [], failed: [], queued: [] };
      if (params.messages.length === 0) return report;
      const plan = planDelivery(params, { id: newId(), ts: clock.now() });
      if (stopped || !persist({ type: "planned", ts: plan.ts, delivery: plan }, true)) {
        // Not durably planned: nothing is sent (it could not be told apart after a crash), and
        // each part is reported (log, event, status) though it cannot be retried by id.
        state.deliveries.delete(plan.id);
        const failure: SendFailure = {
          message: stopped ? "delivery queue stopped" : "delivery queue not writable",
          retryable: true,
          code: "queue_unwritable",
        };
        const ts = clock.now();
        report.failed = plan.parts.map((_part, at) =>
          reportDeadLetter({ sinks: deps, plan, at, failure, attempts: 0, ts }),
        );
        report.unrecorded = true;
        return report;
      }
      coverage.add(plan);
      const conv = enqueue(plan);
      return new Promise<DeliveryReport>((resolve) => {
        waiters.set(plan.id, { resolve, report });
        if (conv.waiting) release(plan.id);
        kick(conv);
      });
    },
    covered: (inboundKey) => coverage.lookup(state, inboundKey),
    reportInterrupted() {
      for (const { delivery, at } of interrupted.splice(0)) {
        const status = delivery.parts[at]!;
        if (status.kind === "inflight")
          deadLetter(delivery, at, INTERRUPTED_FAILURE, status.attempts);
      }
    },
    resume(channel, accountId) {
      for (const conv of conversations.values()) {
        const head = conv.fifo[0] ? state.deliveries.get(conv.fifo[0]) : undefined;
        if (head && head.plan.channel === channel && head.plan.accountId === accountId) kick(conv);
      }
    },
    entries: () => listDeliveryEntries(state),
    counts: (channel, accountId) => countDeliveries(state, channel, accountId),
    retry(selector) {
      return act(selectEntries(state, selector, ["failed"]), ({ delivery, index: at }) => {
        persist({ type: "requeued", id: delivery.plan.id, part: at, ts: clock.now() }, true);
        const conv = enqueue(delivery.plan);
        conv.wake.abort();
        kick(conv);
      });
    },
    drop(selector) {
      return act(
        selectEntries(state, selector, ["failed", "queued"]),
        ({ delivery, index: at }) => {
          const { id } = delivery.plan;
          persist({ type: "dropped", id, part: at, ts: clock.now() }, true);
          const conv = conversations.get(conversationKey(delivery.plan));
          const finished = isFinished(delivery);
          if (conv && finished) conv.fifo = conv.fifo.filter((queued) => queued !== id);
          conv?.wake.abort();
          if (finished) leave(id);
        },
      );
    },
    failAfterSend(sent, failure) {
      const { plan: origin } = sent;
      const plan = planDelivery(
        { ...origin, messages: [origin.parts[sent.at]!], inboundKeys: [] },
        { id: newId(), ts: clock.now() },
      );
      persist({ type: "planned", ts: plan.ts, delivery: plan }, false);
      deadLetter(state.deliveries.get(plan.id)!, 0, failure, 1);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const conv of conversations.values()) conv.wake.abort();
      await Promise.allSettled([...inflight]);
      await Promise.allSettled([...conversations.values()].map((conv) => conv.running));
      for (const id of [...waiters.keys()]) release(id);
      store.close();
    },
  };
}
