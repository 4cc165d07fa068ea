import { describe, expect, it } from "vitest";
import { silentLogger } from "../../lib/logger.js";
import type { InboundMessage } from "../../runtime/lanes/coalesce.js";
import type { RequestOutcome } from "../queue/nats-queue.js";
import { encode, type SteerMessage } from "../queue/wire.js";
import { remoteSteeringOf, SteerRelay } from "./steer-relay.js";

/** A session's steering as the inbound queue keeps it, and every steer the relay sent. */
function harness() {
  const inbox: InboundMessage[] = [];
  const restored: string[] = [];
  let listener: (() => void) | undefined;
  const sent: Array<{ steer: SteerMessage; answer: (outcome: RequestOutcome) => void }> = [];
  const source = {
    hasPendingSteering: () => inbox.length > 0,
    drainSteering: () => inbox.splice(0),
    watchSteering: (next: () => void) => {
      listener = next;
      return () => {
        listener = undefined;
      };
    },
    restoreSteering: (messages: InboundMessage[]) => {
      restored.push(...messages.map((m) => m.text));
    },
  };
  const relay = new SteerRelay({
    runId: "r",
    source,
    logger: silentLogger,
    send: (steer) =>
      new Promise<RequestOutcome>((answer) => {
        sent.push({ steer, answer });
      }),
  });
  const steer = (text: string) => {
    inbox.push({ text, receivedAt: 1 });
    listener?.();
  };
  const reply = (index: number, status: string) =>
    sent[index]?.answer({ ok: true, data: encode({ id: sent[index].steer.id, status }) });
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { relay, source, inbox, restored, sent, steer, reply, tick };
}

describe("the steering of a run on a worker", () => {
  it("needs a source that can be watched and given back", () => {
    expect(remoteSteeringOf({ hasPendingSteering: () => false, drainSteering: () => [] })).toBe(
      undefined,
    );
    expect(remoteSteeringOf(harness().source)).toBeDefined();
  });

  it("forwards nothing before the run is on a worker, then everything with stable ids", () => {
    const h = harness();
    h.steer("early");
    expect(h.sent).toHaveLength(0);
    h.relay.start();
    h.relay.start();
    h.steer("later");
    expect(h.sent.map((s) => s.steer)).toEqual([
      { v: 1, runId: "r", id: "r.s0", text: "early", receivedAt: 1 },
      { v: 1, runId: "r", id: "r.s1", text: "later", receivedAt: 1 },
    ]);
    expect(h.inbox).toHaveLength(0);
  });

  it("gives a refused or unreachable steer back at once", async () => {
    const h = harness();
    h.relay.start();
    h.steer("refused");
    h.steer("nobody");
    h.steer("too big");
    h.reply(0, "rejected");
    h.sent[1]?.answer({ ok: false, reason: "no-responders", error: "503" });
    h.sent[2]?.answer({ ok: false, reason: "error", error: "MAX_PAYLOAD_EXCEEDED" });
    await h.tick();
    expect(h.restored).toEqual(["refused", "nobody", "too big"]);
    h.relay.settle([]);
    expect(h.restored).toEqual(["refused", "nobody", "too big"]);
  });

  it("the result decides: what it lists was taken, the rest goes to a follow-up", async () => {
    const h = harness();
    h.relay.start();
    h.steer("taken");
    h.steer("held, never taken");
    h.steer("unanswered, taken");
    h.reply(0, "accepted");
    h.reply(1, "accepted");
    h.sent[2]?.answer({ ok: false, reason: "timeout", error: "TIMEOUT" });
    await h.tick();
    expect(h.restored).toEqual([]);
    h.relay.settle(["r.s0", "r.s2"]);
    expect(h.restored).toEqual(["held, never taken"]);
    // Settled: later steers stay in the session's queue, late answers change nothing.
    h.steer("after the end");
    h.reply(1, "rejected");
    await h.tick();
    expect(h.sent).toHaveLength(3);
    expect(h.restored).toEqual(["held, never taken"]);
  });

  it("without a result (aborted here) keeps only what the worker acked as taken", async () => {
    const h = harness();
    h.relay.start();
    h.steer("acked");
    h.steer("only accepted");
    h.reply(0, "accepted");
    h.reply(1, "accepted");
    await h.tick();
    h.relay.taken("r.s0");
    h.relay.settle();
    expect(h.restored).toEqual(["only accepted"]);
  });
});
