import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import type { PlannedDelivery } from "./delivery-records.js";
import { deliveryQueuePath, openDeliveryStore, readDeliveryState } from "./delivery-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const stateDirOf = () => {
  const dir = makeTempDir("pincer-dstore-");
  dirs.push(dir);
  return dir;
};
const plan = (id: string, inboundKeys: string[], texts: string[]): PlannedDelivery => ({
  id,
  ts: 1,
  channel: "c",
  accountId: "a",
  parts: texts.map((text) => ({
    target: { accountId: "a", peer: { kind: "direct", id: "1" } },
    text,
  })),
  inboundKeys,
});

describe("delivery store", () => {
  it("compacts to live deliveries (intents kept uncertain, schedules kept) and summaries of finished ones", () => {
    const stateDir = stateDirOf();
    const store = openDeliveryStore({ stateDir, now: () => 5, maxBytes: 64 * 1024 });
    store.append({ type: "planned", ts: 1, delivery: plan("done1", ["k1"], ["x".repeat(40_000)]) });
    store.append({ type: "attempt", id: "done1", part: 0, ts: 2, attempts: 1 });
    store.append({ type: "sent", id: "done1", part: 0, ts: 3, attempts: 1, messageId: "m" });
    store.append({ type: "done", ts: 3, id: "done1", inboundKeys: ["k1"], failed: false });
    store.append({ type: "planned", ts: 4, delivery: plan("live", ["k2"], ["a", "b", "c"]) });
    store.append({ type: "attempt", id: "live", part: 0, ts: 4, attempts: 1 });
    store.append({ type: "retry", id: "live", part: 1, ts: 4, attempts: 2, nextAttemptAt: 99 });
    // Past the threshold: this append compacts.
    store.append({ type: "planned", ts: 4, delivery: plan("big", [], ["y".repeat(40_000)]) });
    store.close();
    const text = readFileSync(deliveryQueuePath(stateDir), "utf8");
    expect(text).not.toContain("x".repeat(100));
    const { state, torn } = readDeliveryState(stateDir);
    expect(torn).toBe(0);
    expect([...state.summaries.keys()]).toEqual(["done1"]);
    expect(state.deliveries.get("live")!.parts).toEqual([
      { kind: "inflight", attempts: 1, at: 4 },
      { kind: "queued", attempts: 2, nextAttemptAt: 99 },
      { kind: "queued", attempts: 0 },
    ]);
    expect(state.deliveries.has("big")).toBe(true);
  });

  it("skips a line torn by a crash and repairs the file on open", () => {
    const stateDir = stateDirOf();
    const store = openDeliveryStore({ stateDir, now: () => 5 });
    store.append({ type: "planned", ts: 1, delivery: plan("d1", [], ["hi"]) }, { durable: true });
    store.close();
    appendFileSync(deliveryQueuePath(stateDir), '{"type":"attempt","id":"d1","pa');
    const reopened = openDeliveryStore({ stateDir, now: () => 5 });
    expect(reopened.torn).toBe(1);
    // The cut intent never completed, so the send never started: the part is still just queued.
    expect(reopened.state.deliveries.get("d1")!.parts).toEqual([{ kind: "queued", attempts: 0 }]);
    reopened.close();
    expect(readFileSync(deliveryQueuePath(stateDir), "utf8").endsWith("\n")).toBe(true);
  });
});
