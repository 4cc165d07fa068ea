import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COLLECT_HEADER, type InboundMessage } from "./coalesce.js";
import { createInboundQueue, type InboundQueueEvent, type QueuedTurn } from "./inbound-queue.js";
import { DEFAULT_QUEUE_SETTINGS, type QueueSettings } from "./queue-settings.js";
import { createLaneScheduler } from "./scheduler.js";

function harness(overrides: Partial<QueueSettings> = {}) {
  const scheduler = createLaneScheduler();
  const turns: QueuedTurn[] = [];
  const finishers: Array<() => void> = [];
  const events: InboundQueueEvent[] = [];
  const settings: QueueSettings = { ...DEFAULT_QUEUE_SETTINGS, ...overrides };
  const queue = createInboundQueue({
    scheduler,
    onEvent: (event) => events.push(event),
    runTurn: (turn) => {
      turns.push(turn);
      return new Promise<void>((resolve, reject) => {
        finishers.push(resolve);
        turn.signal.addEventListener("abort", () => reject(turn.signal.reason));
      });
    },
  });
  const submit = (text: string, extra: Partial<InboundMessage> = {}, key = "s") =>
    queue.submit({ sessionKey: key, message: { text, ...extra }, settings });
  const finish = async (index: number) => {
    finishers[index]();
    await vi.advanceTimersByTimeAsync(0);
  };
  const texts = (turn: QueuedTurn) => turn.messages.map((message) => message.text);
  const drops = () => events.flatMap((event) => (event.type === "message_dropped" ? [event] : []));
  return { scheduler, queue, turns, events, submit, finish, texts, drops };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("collect (default)", () => {
  it("starts an idle session's turn at once and coalesces what arrives during it", async () => {
    const h = harness();
    expect(h.submit("m1").disposition).toBe("new_turn");
    expect(h.turns).toHaveLength(1);
    expect(h.turns[0].prompt).toBe("m1");
    expect(h.submit("m2").disposition).toBe("held");
    await vi.advanceTimersByTimeAsync(500);
    expect(h.submit("m3").disposition).toBe("held");
    await vi.advanceTimersByTimeAsync(100);
    await h.finish(0);
    // Quiet window: 1000 ms after the last arrival (t=500) → the next turn starts at t=1500.
    await vi.advanceTimersByTimeAsync(899);
    expect(h.turns).toHaveLength(1);
    expect(h.queue.pending("s")).toEqual({ phase: "waiting", held: 2, steering: 0 });
    await vi.advanceTimersByTimeAsync(1);
    expect(h.turns).toHaveLength(2);
    expect(h.texts(h.turns[1])).toEqual(["m2", "m3"]);
    expect(h.turns[1].prompt).toBe(`${COLLECT_HEADER}\n\n---\nQueued #1\nm2\n\n---\nQueued #2\nm3`);
  });

  it("extends the debounce window when messages keep arriving", async () => {
    const h = harness({ debounceMs: 1000 });
    h.submit("m1");
    h.submit("m2");
    await h.finish(0);
    await vi.advanceTimersByTimeAsync(900);
    h.submit("m3");
    await vi.advanceTimersByTimeAsync(999);
    expect(h.turns).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.texts(h.turns[1])).toEqual(["m2", "m3"]);
  });

  it("never coalesces messages of different routes", async () => {
    const h = harness({ debounceMs: 0 });
    h.submit("m1", { route: "telegram:1" });
    h.submit("a2", { route: "telegram:1" });
    h.submit("b1", { route: "whatsapp:9" });
    h.submit("a3", { route: "telegram:1" });
    await h.finish(0);
    expect(h.texts(h.turns[1])).toEqual(["a2", "a3"]);
    expect(h.turns[1].route).toBe("telegram:1");
    await h.finish(1);
    expect(h.texts(h.turns[2])).toEqual(["b1"]);
  });
});

describe("followup", () => {
  it("runs each held message as its own turn, in order", async () => {
    const h = harness({ mode: "followup", debounceMs: 200 });
    h.submit("m1");
    h.submit("m2");
    h.submit("m3");
    await h.finish(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(h.texts(h.turns[1])).toEqual(["m2"]);
    await h.finish(1);
    expect(h.texts(h.turns[2])).toEqual(["m3"]);
    await h.finish(2);
    expect(h.queue.sessionCount).toBe(0);
    expect(h.scheduler.laneCount).toBe(0);
  });
});

describe("steer", () => {
  it("hands messages to the running turn through drainSteering", async () => {
    const h = harness({ mode: "steer" });
    h.submit("m1");
    await vi.advanceTimersByTimeAsync(0);
    const turn = h.turns[0];
    expect(turn.hasPendingSteering()).toBe(false);
    expect(h.submit("stop, do X instead").disposition).toBe("steered");
    expect(turn.hasPendingSteering()).toBe(true);
    expect(turn.drainSteering().map((m) => m.text)).toEqual(["stop, do X instead"]);
    expect(turn.drainSteering()).toEqual([]);
    await h.finish(0);
    expect(h.turns).toHaveLength(1);
    expect(h.queue.sessionCount).toBe(0);
  });

  it("runs steering the turn never drained as a follow-up turn", async () => {
    const h = harness({ mode: "steer", debounceMs: 100 });
    h.submit("m1");
    h.submit("late");
    await h.finish(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(h.texts(h.turns[1])).toEqual(["late"]);
  });

  it("tells a watcher of each steered message; restored steering runs as a follow-up turn", async () => {
    const h = harness({ mode: "steer", debounceMs: 0 });
    h.submit("m1");
    await vi.advanceTimersByTimeAsync(0);
    const turn = h.turns[0];
    const forwarded: string[] = [];
    const stop = turn.watchSteering(() => {
      forwarded.push(...turn.drainSteering().map((m) => m.text));
    });
    expect(h.submit("s1").disposition).toBe("steered");
    expect(h.submit("s2").disposition).toBe("steered");
    expect(forwarded).toEqual(["s1", "s2"]);
    expect(turn.hasPendingSteering()).toBe(false);
    stop();
    h.submit("s3");
    expect(forwarded).toEqual(["s1", "s2"]);
    // The run elsewhere did not take s2: it comes back, in arrival order, ahead of s3.
    const s2 = { text: "s2", receivedAt: 0 };
    turn.restoreSteering([s2]);
    await h.finish(0);
    expect(h.turns).toHaveLength(2);
    expect(h.texts(h.turns[1])).toEqual(["s2"]);
    expect(h.turns[1].drainSteering().map((m) => m.text)).toEqual(["s3"]);
  });

  it("restored steering of a session gone idle starts a turn of its own", async () => {
    const h = harness({ mode: "steer", debounceMs: 0 });
    h.submit("m1");
    await vi.advanceTimersByTimeAsync(0);
    const turn = h.turns[0];
    await h.finish(0);
    expect(h.queue.sessionCount).toBe(0);
    turn.restoreSteering([{ text: "late back" }]);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.texts(h.turns[1])).toEqual(["late back"]);
  });

  it("holds a message for another route instead of steering this run", async () => {
    const h = harness({ mode: "steer", debounceMs: 0 });
    h.submit("m1", { route: "a" });
    expect(h.submit("other chat", { route: "b" }).disposition).toBe("held");
    await h.finish(0);
    expect(h.texts(h.turns[1])).toEqual(["other chat"]);
  });
});

describe("interrupt", () => {
  it("aborts the current run and runs the new message right after", async () => {
    const h = harness({ mode: "interrupt", debounceMs: 5000 });
    h.submit("long task");
    const first = h.turns[0];
    const result = h.submit("never mind, do this");
    expect(result.disposition).toBe("interrupting");
    expect(first.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.turns).toHaveLength(2);
    expect(h.texts(h.turns[1])).toEqual(["never mind, do this"]);
    expect(h.events.some((e) => e.type === "run_interrupted")).toBe(true);
    expect(h.events.some((e) => e.type === "turn_failed")).toBe(false);
  });
});

describe("cap and drop policies", () => {
  it("old: drops the oldest held message and reports it", async () => {
    const h = harness({ cap: 2, drop: "old", debounceMs: 0 });
    h.submit("m1");
    h.submit("m2");
    h.submit("m3");
    expect(h.submit("m4", { id: "id-4" }).disposition).toBe("held");
    expect(h.drops()).toEqual([
      expect.objectContaining({ reason: "cap", policy: "old", summarized: false }),
    ]);
    expect(h.drops()[0].message.text).toBe("m2");
    await h.finish(0);
    expect(h.texts(h.turns[1])).toEqual(["m3", "m4"]);
    expect(h.turns[1].overflowSummary).toBeUndefined();
  });

  it("new: drops the newcomer and reports it", async () => {
    const h = harness({ cap: 2, drop: "new", debounceMs: 0 });
    h.submit("m1");
    h.submit("m2");
    h.submit("m3");
    expect(h.submit("m4").disposition).toBe("dropped");
    expect(h.drops().map((d) => d.message.text)).toEqual(["m4"]);
    await h.finish(0);
    expect(h.texts(h.turns[1])).toEqual(["m2", "m3"]);
  });

  it("summarize: keeps a one-line summary of dropped messages in the next turn", async () => {
    const h = harness({ cap: 1, drop: "summarize", debounceMs: 0 });
    h.submit("m1");
    h.submit("first\nidea");
    h.submit("second idea");
    h.submit("third idea");
    expect(h.drops().map((d) => [d.message.text, d.summarized])).toEqual([
      ["first\nidea", true],
      ["second idea", true],
    ]);
    await h.finish(0);
    const turn = h.turns[1];
    expect(h.texts(turn)).toEqual(["third idea"]);
    expect(turn.overflowSummary).toBe(
      '[Queue overflow: 2 earlier messages dropped: "first idea"; "second idea"]',
    );
    expect(turn.prompt).toBe(`${turn.overflowSummary}\n\nthird idea`);
    expect(turn.overflowSummary).not.toContain("\n");
  });

  it("cancel reports every held message as dropped and aborts the run", async () => {
    const h = harness({ debounceMs: 0 });
    h.submit("m1");
    h.submit("m2");
    h.submit("m3");
    expect(h.queue.cancel("s", "/stop")).toBe(2);
    expect(h.drops().map((d) => [d.message.text, d.reason])).toEqual([
      ["m2", "cancelled"],
      ["m3", "cancelled"],
    ]);
    expect(h.turns[0].signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.turns).toHaveLength(1);
    expect(h.queue.sessionCount).toBe(0);
  });
});

describe("lifecycle", () => {
  it("reports a failing turn and keeps serving the session", async () => {
    const scheduler = createLaneScheduler();
    const events: InboundQueueEvent[] = [];
    const prompts: string[] = [];
    const queue = createInboundQueue({
      scheduler,
      onEvent: (event) => events.push(event),
      runTurn: async (turn) => {
        prompts.push(turn.prompt);
        if (turn.prompt === "bad") throw new Error("model exploded");
      },
    });
    const settings = { ...DEFAULT_QUEUE_SETTINGS, debounceMs: 0 };
    queue.submit({ sessionKey: "s", message: { text: "bad" }, settings });
    queue.submit({ sessionKey: "s", message: { text: "good" }, settings });
    await vi.advanceTimersByTimeAsync(0);
    expect(prompts).toEqual(["bad", "good"]);
    const failed = events.find((event) => event.type === "turn_failed");
    expect(failed && "error" in failed && String(failed.error)).toContain("model exploded");
    expect(queue.sessionCount).toBe(0);
  });

  it("keeps sessions independent", async () => {
    const h = harness();
    h.submit("a1", {}, "agent:main:a");
    h.submit("b1", {}, "agent:main:b");
    expect(h.turns.map((t) => t.sessionKey)).toEqual(["agent:main:a", "agent:main:b"]);
    expect(h.scheduler.activeCount).toBe(2);
  });
});
