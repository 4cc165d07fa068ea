import { describe, expect, it } from "vitest";
import { createLaneScheduler, DEFAULT_MAX_CONCURRENT, LaneCancelledError } from "./scheduler.js";

interface Gate {
  promise: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("createLaneScheduler", () => {
  it("never overlaps two runs of one session, even when enqueued at once", async () => {
    const scheduler = createLaneScheduler({ maxConcurrent: 8 });
    let running = 0;
    let maxRunning = 0;
    const order: number[] = [];
    const handles = Array.from({ length: 10 }, (_, i) =>
      scheduler.enqueue("agent:main:main", async () => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await flush();
        order.push(i);
        running -= 1;
        return i;
      }),
    );
    expect(scheduler.activeCount).toBe(1);
    expect(scheduler.queuedCount).toBe(9);
    const results = await Promise.all(handles.map((handle) => handle.result));
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(order).toEqual(results);
    expect(maxRunning).toBe(1);
  });

  it("runs other sessions side by side up to the global cap", async () => {
    const scheduler = createLaneScheduler({ maxConcurrent: 2 });
    const gates = new Map<string, Gate>();
    const started: string[] = [];
    const run = (key: string) =>
      scheduler.enqueue(key, async () => {
        started.push(key);
        const g = gate();
        gates.set(key, g);
        await g.promise;
        return key;
      });
    const a = run("a");
    run("b");
    run("c");
    expect(started).toEqual(["a", "b"]);
    expect(scheduler.activeCount).toBe(2);
    expect(scheduler.queuedCount).toBe(1);
    expect(scheduler.isBusy("c")).toBe(true);
    gates.get("a")!.open();
    await a.result;
    expect(started).toEqual(["a", "b", "c"]);
    expect(scheduler.activeCount).toBe(2);
    gates.get("b")!.open();
    gates.get("c")!.open();
    await scheduler.idle();
    expect(scheduler.activeCount).toBe(0);
  });

  it("starts waiting runs in enqueue order across sessions (FIFO)", async () => {
    const scheduler = createLaneScheduler({ maxConcurrent: 1 });
    const started: string[] = [];
    const task = (name: string) => async () => {
      started.push(name);
      await flush();
    };
    scheduler.enqueue("a", task("a1"));
    scheduler.enqueue("b", task("b1"));
    scheduler.enqueue("a", task("a2"));
    scheduler.enqueue("c", task("c1"));
    scheduler.enqueue("b", task("b2"));
    await scheduler.idle();
    expect(started).toEqual(["a1", "b1", "a2", "c1", "b2"]);
  });

  it("drops lanes once idle, so the lane map does not grow", async () => {
    const scheduler = createLaneScheduler({ maxConcurrent: 4 });
    const handles = Array.from({ length: 500 }, (_, i) =>
      scheduler.enqueue(`agent:main:peer-${i}`, async () => i),
    );
    expect(scheduler.laneCount).toBe(500);
    await Promise.all(handles.map((handle) => handle.result));
    expect(scheduler.laneCount).toBe(0);
    expect(scheduler.isBusy("agent:main:peer-1")).toBe(false);
    expect(scheduler.queuedCount).toBe(0);
  });

  it("keeps a lane going after a task fails or throws synchronously", async () => {
    const scheduler = createLaneScheduler();
    const failing = scheduler.enqueue("s", async () => {
      throw new Error("boom");
    });
    const throwing = scheduler.enqueue("s", (() => {
      throw new Error("sync");
    }) as () => Promise<never>);
    const ok = scheduler.enqueue("s", async () => "ok");
    await expect(failing.result).rejects.toThrow("boom");
    await expect(throwing.result).rejects.toThrow("sync");
    await expect(ok.result).resolves.toBe("ok");
    expect(scheduler.laneCount).toBe(0);
  });

  it("cancel rejects queued runs and aborts the running one", async () => {
    const scheduler = createLaneScheduler();
    let seenSignal: AbortSignal | undefined;
    const running = scheduler.enqueue("s", (signal) => {
      seenSignal = signal;
      return new Promise((_, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason));
      });
    });
    const queued = scheduler.enqueue("s", async () => "never");
    expect(scheduler.cancel("s", "stopped by user")).toBe(2);
    await expect(queued.result).rejects.toBeInstanceOf(LaneCancelledError);
    await expect(running.result).rejects.toThrow(/stopped by user/);
    expect(seenSignal?.aborted).toBe(true);
    expect(scheduler.laneCount).toBe(0);
    expect(scheduler.cancel("s")).toBe(0);
  });

  it("abort() of a queued run removes only that run", async () => {
    const scheduler = createLaneScheduler({ maxConcurrent: 1 });
    const g = gate();
    const first = scheduler.enqueue("a", () => g.promise.then(() => 1));
    const second = scheduler.enqueue("b", async () => 2);
    const third = scheduler.enqueue("c", async () => 3);
    second.abort();
    await expect(second.result).rejects.toBeInstanceOf(LaneCancelledError);
    expect(scheduler.queuedCount).toBe(1);
    g.open();
    await expect(first.result).resolves.toBe(1);
    await expect(third.result).resolves.toBe(3);
  });

  it("passes run ids to tasks and reports lifecycle events with the clock", async () => {
    let now = 1000;
    const events: string[] = [];
    let ids = 0;
    const scheduler = createLaneScheduler({
      clock: { now: () => now },
      newRunId: () => `run-${++ids}`,
      onEvent: (event) => events.push(`${event.type}:${event.runId}`),
    });
    const handle = scheduler.enqueue("s", async (_signal, info) => {
      now += 25;
      return info.runId;
    });
    expect(handle.runId).toBe("run-1");
    expect(scheduler.runningRunId("s")).toBe("run-1");
    await expect(handle.result).resolves.toBe("run-1");
    expect(events).toEqual(["run_queued:run-1", "run_started:run-1", "run_finished:run-1"]);
  });

  it("runs a task under the runId given to enqueue, queued behind another or not", async () => {
    const scheduler = createLaneScheduler({ newRunId: () => "generated" });
    const g = gate();
    const first = scheduler.enqueue("s", () => g.promise, { runId: "rpc-key-1" });
    const second = scheduler.enqueue("s", async (_signal, info) => info.runId, {
      runId: "rpc-key-2",
    });
    const third = scheduler.enqueue("s", async (_signal, info) => info.runId);
    expect([first.runId, second.runId, third.runId]).toEqual([
      "rpc-key-1",
      "rpc-key-2",
      "generated",
    ]);
    expect(scheduler.runningRunId("s")).toBe("rpc-key-1");
    g.open();
    await expect(second.result).resolves.toBe("rpc-key-2");
    await expect(third.result).resolves.toBe("generated");
  });

  it("defaults to a cap of 4 and starts waiting runs when the cap is raised", async () => {
    const scheduler = createLaneScheduler();
    expect(scheduler.maxConcurrent).toBe(DEFAULT_MAX_CONCURRENT);
    const g = gate();
    for (let i = 0; i < 6; i++) scheduler.enqueue(`s${i}`, () => g.promise);
    expect(scheduler.activeCount).toBe(4);
    scheduler.setMaxConcurrent(6);
    expect(scheduler.activeCount).toBe(6);
    g.open();
    await scheduler.idle();
    expect(scheduler.laneCount).toBe(0);
  });
  it("caps a group (an agent) across its sessions while other groups run; a new cap applies at once", async () => {
    const caps: Record<string, number | undefined> = { slow: 1 };
    const scheduler = createLaneScheduler({
      maxConcurrent: 8,
      groups: { groupOf: (key) => key.split(":")[1] ?? "", capOf: (group) => caps[group] },
    });
    const gates = new Map<string, Gate>();
    const started: string[] = [];
    const run = (key: string) =>
      scheduler.enqueue(key, async () => {
        started.push(key);
        const g = gate();
        gates.set(key, g);
        await g.promise;
      });
    const first = run("agent:slow:a");
    run("agent:slow:b");
    run("agent:fast:a");
    run("agent:fast:b");
    run("agent:slow:c");
    // slow:b waits for slow:a although global slots are free; fast runs past it (FIFO otherwise).
    expect(started).toEqual(["agent:slow:a", "agent:fast:a", "agent:fast:b"]);
    gates.get("agent:slow:a")!.open();
    await first.result;
    expect(started.slice(3)).toEqual(["agent:slow:b"]);
    // Raising the cap (a reload) starts the waiting run once the scheduler is told.
    caps.slow = 2;
    scheduler.setMaxConcurrent(8);
    expect(started.slice(4)).toEqual(["agent:slow:c"]);
    for (const g of gates.values()) g.open();
    await scheduler.idle();
    expect(scheduler.activeCount).toBe(0);
  });
});
