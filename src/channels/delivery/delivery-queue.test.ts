import { readFileSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { createVirtualClock, type VirtualClock } from "../../../test/helpers/virtual-clock.js";
import { silentLogger } from "../../lib/logger.js";
import type { OutboundMessage, SendFailure, SendResult } from "../types.js";
import { type DeliveryQueue, openDeliveryQueue } from "./delivery-queue.js";
import { deliveryQueuePath } from "./delivery-store.js";
import type { DeliveryFailureRecord } from "./failure-log.js";
import { readDeliveryFailures } from "./failure-log.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./send-retry.js";

const dirs: string[] = [];
const queues: DeliveryQueue[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const target = { accountId: "a", peer: { kind: "direct" as const, id: "1" } };
const part = (text: string): OutboundMessage => ({ target, text });
const failure = (extra: Partial<SendFailure> = {}): SendResult => ({
  ok: false,
  failure: { message: "busy", retryable: true, ...extra },
});

/** A scripted runtime: results are taken in order (then ok); `hang` never answers. */
function scriptedRuntime(results: Array<SendResult | "hang">) {
  const calls: OutboundMessage[] = [];
  let next = 0;
  return {
    calls,
    send: (message: OutboundMessage): Promise<SendResult> => {
      calls.push(message);
      const result = results.shift();
      if (result === "hang") return new Promise(() => {});
      return Promise.resolve(result ?? { ok: true, receipt: { messageId: `m${++next}` } });
    },
  };
}

interface Harness {
  queue: DeliveryQueue;
  events: DeliveryFailureRecord[];
  stateDir: string;
}

function open(params: {
  stateDir?: string;
  clock: VirtualClock;
  runtime: ReturnType<typeof scriptedRuntime> | undefined;
  policy?: Partial<RetryPolicy>;
}): Harness {
  const stateDir = params.stateDir ?? makeTempDir("pincer-queue-");
  if (!params.stateDir) dirs.push(stateDir);
  const events: DeliveryFailureRecord[] = [];
  const queue = openDeliveryQueue({
    stateDir,
    clock: params.clock.clock,
    log: silentLogger,
    emit: (_event, payload) => events.push(payload as DeliveryFailureRecord),
    runtimeFor: () => params.runtime,
    policyFor: () => ({ ...DEFAULT_RETRY_POLICY, jitter: 0, ...params.policy }),
  });
  queues.push(queue);
  return { queue, events, stateDir };
}

const records = (stateDir: string) =>
  readFileSync(deliveryQueuePath(stateDir), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("delivery queue", () => {
  it("waits out 5xx with a backoff of minutes and a 429 for exactly retry_after, persisting each", async () => {
    const clock = createVirtualClock();
    const runtime = scriptedRuntime([
      failure({ code: "500" }),
      failure({ code: "502" }),
      failure({ code: "429", retryAfterMs: 120_000 }),
      failure({ code: "503" }),
    ]);
    const { queue, stateDir } = open({ clock, runtime });
    const started = clock.now();
    const report = await queue.deliver({ channel: "c", accountId: "a", messages: [part("hi")] });
    // The first wait releases the caller; the queue keeps going on its own.
    expect(report).toMatchObject({ sent: [], failed: [], queued: [expect.any(String)] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runtime.calls).toHaveLength(5);
    expect(clock.sleeps).toEqual([1_000, 2_000, 120_000, 8_000]);
    const retries = records(stateDir).filter((r) => r.type === "retry");
    expect(retries.map((r) => r.nextAttemptAt - started)).toEqual([
      1_000,
      1_000 + 2_000,
      3_000 + 120_000,
      123_000 + 8_000,
    ]);
    expect(queue.entries()).toEqual([]);
  });

  it("dead-letters after the last attempt (log + event), then retry re-sends it and drop removes one", async () => {
    const clock = createVirtualClock();
    const runtime = scriptedRuntime([
      failure(),
      failure(),
      failure(),
      { ok: false, failure: { message: "chat not found", retryable: false, code: "400" } },
    ]);
    const { queue, events, stateDir } = open({ clock, runtime, policy: { attempts: 3 } });
    await queue.deliver({ channel: "c", accountId: "a", messages: [part("one"), part("two")] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const entries = queue.entries();
    expect(entries.map((e) => [e.part, e.state, e.retryable, e.attempts])).toEqual([
      [1, "failed", true, 3],
      [2, "failed", false, 1],
    ]);
    expect(events.map((e) => e.id)).toEqual(entries.map((e) => e.id));
    expect(readDeliveryFailures(stateDir).map((r) => r.text)).toEqual(["one", "two"]);
    expect(queue.retry({ ids: ["nope.1"] })).toMatchObject({ ok: false });
    expect(queue.retry({ ids: [entries[0]!.id] })).toEqual({ ok: true, ids: [entries[0]!.id] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runtime.calls.map((c) => c.text)).toEqual(["one", "one", "one", "two", "one"]);
    expect(queue.entries().map((e) => e.id)).toEqual([entries[1]!.id]);
    expect(queue.drop({ all: true })).toEqual({ ok: true, ids: [entries[1]!.id] });
    expect(queue.entries()).toEqual([]);
    expect(records(stateDir).at(-1)).toMatchObject({ type: "done" });
  });

  it("never retries an uncertain failure (timeout): reported once as uncertain", async () => {
    const clock = createVirtualClock();
    const runtime = scriptedRuntime([
      {
        ok: false,
        failure: { message: "timed out", retryable: false, uncertain: true, code: "timeout" },
      },
    ]);
    const { queue, events } = open({ clock, runtime });
    const report = await queue.deliver({ channel: "c", accountId: "a", messages: [part("x")] });
    expect(report.failed).toEqual([expect.objectContaining({ uncertain: true, retryable: false })]);
    expect(runtime.calls).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(queue.entries()[0]).toMatchObject({ state: "uncertain" });
  });

  it("after a crash mid-send: the cut part is reported uncertain, never re-sent; unsent parts go out", async () => {
    const clock = createVirtualClock();
    const first = scriptedRuntime([{ ok: true, receipt: { messageId: "p1" } }, "hang"]);
    const crashed = open({ clock, runtime: first });
    void crashed.queue.deliver({
      channel: "c",
      accountId: "a",
      messages: [part("one"), part("two"), part("three")],
      inboundKeys: ["k1"],
      agentId: "main",
      sessionKey: "agent:main:main",
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first.calls.map((c) => c.text)).toEqual(["one", "two"]);
    queues.splice(queues.indexOf(crashed.queue), 1); // "killed": never stopped, its fd left open

    const second = scriptedRuntime([]);
    const next = open({ stateDir: crashed.stateDir, clock, runtime: second });
    expect(next.queue.covered("k1")).toEqual([
      expect.objectContaining({ agentId: "main", sessionKey: "agent:main:main" }),
    ]);
    next.queue.reportInterrupted();
    next.queue.resume("c", "a");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second.calls.map((c) => c.text)).toEqual(["three"]);
    expect(next.events).toEqual([
      expect.objectContaining({ text: "two", uncertain: true, code: "interrupted" }),
    ]);
    expect(next.queue.entries().map((e) => [e.part, e.state])).toEqual([[2, "uncertain"]]);
    expect(next.queue.covered("k1")[0]!.outcome).toBe("delivery-failed");
  });

  it("keeps a retry schedule across a restart: the next start waits only what is left", async () => {
    const clock = createVirtualClock({ holdAboveMs: 10_000 });
    const runtime = scriptedRuntime([failure({ retryAfterMs: 600_000 })]);
    const first = open({ clock, runtime });
    const report = await first.queue.deliver({
      channel: "c",
      accountId: "a",
      messages: [part("later")],
    });
    expect(report.queued).toHaveLength(1);
    expect(clock.held()).toEqual([600_000]);
    await first.queue.stop();
    queues.splice(queues.indexOf(first.queue), 1);
    expect(runtime.calls).toHaveLength(1);

    clock.advance(200_000);
    const again = scriptedRuntime([]);
    const next = open({ stateDir: first.stateDir, clock, runtime: again });
    expect(next.queue.entries()).toEqual([
      expect.objectContaining({ state: "queued", attempts: 1, nextAttemptAt: expect.any(Number) }),
    ]);
    next.queue.resume("c", "a");
    await clock.waitForSleep(400_000);
    expect(again.calls).toHaveLength(0);
    clock.releaseHeld();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(again.calls.map((c) => c.text)).toEqual(["later"]);
    expect(next.queue.entries()).toEqual([]);
  });

  it("keeps a conversation in order: a later reply waits behind an earlier one's retry", async () => {
    const clock = createVirtualClock({ holdAboveMs: 10_000 });
    const runtime = scriptedRuntime([failure({ retryAfterMs: 30_000 })]);
    const { queue } = open({ clock, runtime });
    await queue.deliver({ channel: "c", accountId: "a", messages: [part("first")] });
    const second = await queue.deliver({
      channel: "c",
      accountId: "a",
      messages: [part("second")],
    });
    expect(second).toMatchObject({ sent: [], queued: [expect.any(String)] });
    expect(runtime.calls.map((c) => c.text)).toEqual(["first"]);
    clock.releaseHeld();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runtime.calls.map((c) => c.text)).toEqual(["first", "first", "second"]);
  });

  it("sends nothing it could not record first: a delivery after stop is reported, unrecorded", async () => {
    const clock = createVirtualClock();
    const runtime = scriptedRuntime([]);
    const { queue, events } = open({ clock, runtime });
    await queue.stop();
    const report = await queue.deliver({ channel: "c", accountId: "a", messages: [part("late")] });
    expect(report).toMatchObject({ unrecorded: true, sent: [], failed: [{ text: "late" }] });
    expect(runtime.calls).toHaveLength(0);
    expect(events).toHaveLength(1);
  });
});
