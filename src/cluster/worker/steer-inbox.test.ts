import { describe, expect, it } from "vitest";
import { SteerInbox } from "./steer-inbox.js";

const steer = (id: string, text = id) => ({ v: 1 as const, runId: "r", id, text });

describe("a run's steer inbox on a worker", () => {
  it("holds steers until drained, takes an id once, acks each as taken", () => {
    const taken: string[] = [];
    const inbox = new SteerInbox({ taken: [], onTaken: (id) => taken.push(id) });
    expect(inbox.hasPendingSteering()).toBe(false);
    expect(inbox.offer({ ...steer("r.s0", "look"), receivedAt: 7 })).toEqual({
      id: "r.s0",
      status: "accepted",
    });
    expect(inbox.offer(steer("r.s0"))).toEqual({ id: "r.s0", status: "duplicate" });
    expect(inbox.hasPendingSteering()).toBe(true);
    expect(inbox.drainSteering()).toEqual([{ text: "look", steerId: "r.s0", receivedAt: 7 }]);
    expect(taken).toEqual(["r.s0"]);
    expect(inbox.drainSteering()).toEqual([]);
    expect(inbox.offer(steer("r.s0"))).toEqual({ id: "r.s0", status: "duplicate" });
    expect(inbox.close()).toEqual(["r.s0"]);
  });

  it("counts ids its transcript records as taken (a redelivered turn)", () => {
    const inbox = new SteerInbox({ taken: ["r.s0"], onTaken: () => undefined });
    expect(inbox.offer(steer("r.s0"))).toEqual({ id: "r.s0", status: "duplicate" });
    expect(inbox.hasPendingSteering()).toBe(false);
    expect(inbox.close()).toEqual(["r.s0"]);
  });

  it("refuses once the run ended and never lists an untaken steer", () => {
    const inbox = new SteerInbox({ taken: [], onTaken: () => undefined });
    inbox.offer(steer("r.s0"));
    expect(inbox.close()).toEqual([]);
    expect(inbox.hasPendingSteering()).toBe(false);
    expect(inbox.drainSteering()).toEqual([]);
    expect(inbox.offer(steer("r.s1"))).toEqual({
      id: "r.s1",
      status: "rejected",
      reason: "the run has ended",
    });
  });
});
