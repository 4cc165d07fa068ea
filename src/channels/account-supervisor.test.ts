// The account supervisor with a manual clock and timers: a failed start or a failed run is restarted
// after 1 s, 2 s, 4 s… (jittered, capped at 5 min, reset after a healthy run, never sooner than the
// platform's retry-after), the status shows the error, the restart count and the next retry, the
// old runtime serves sends until its replacement starts, and stop / abort cancel a pending restart.
import { describe, expect, it } from "vitest";
import { createEntryLogger } from "../lib/logger.js";
import type { AccountStatusSnapshot } from "./account-status.js";
import {
  DEFAULT_RESTART_POLICY,
  restartDelayMs,
  type SupervisedStatus,
  type SupervisorTimers,
  superviseAccount,
} from "./account-supervisor.js";
import type { ChannelAccountEnd, ChannelAccountRuntime } from "./types.js";

/** A clock and timers the test advances by hand. */
function manualTime() {
  let now = 1_000_000;
  let nextId = 1;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: SupervisorTimers = {
    setTimeout(fn, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    timers,
    now: () => now,
    pendingDelays: () => [...pending.values()].map((t) => t.at - now),
    async advance(ms: number) {
      now += ms;
      for (const [id, timer] of [...pending.entries()].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue;
        pending.delete(id);
        timer.fn();
      }
      await settle();
    },
    settle,
  };
}

/** A runtime whose run the test ends; records stops and sends. */
function fakeRuntime(label: string) {
  let end: (value: ChannelAccountEnd) => void = () => {};
  const events: string[] = [];
  const runtime: ChannelAccountRuntime = {
    send: async () => {
      events.push(`${label}:send`);
      return { ok: true, receipt: { messageId: "1" } };
    },
    probe: async () => ({ ok: false, error: "n/a" }),
    stop: async () => {
      events.push(`${label}:stop`);
      end({ failed: false });
    },
    ended: new Promise((resolve) => {
      end = resolve;
    }),
  };
  return {
    runtime,
    events,
    fail: (error: string, retryAfterMs?: number) =>
      end({ failed: true, error, ...(retryAfterMs ? { retryAfterMs } : {}) }),
  };
}

function setup(options: { starts: Array<() => Promise<ChannelAccountRuntime>>; random?: number }) {
  const time = manualTime();
  const controller = new AbortController();
  const status: Partial<AccountStatusSnapshot> = { restarts: 0 };
  const logs: Array<{ fields: Record<string, unknown>; message: string }> = [];
  let live: ChannelAccountRuntime | undefined;
  let startCount = 0;
  const supervisor = superviseAccount({
    start: () => {
      const next = options.starts[startCount++];
      if (!next) throw new Error("no more scripted starts");
      return next();
    },
    signal: controller.signal,
    log: createEntryLogger((entry) => logs.push({ fields: entry.fields, message: entry.msg })),
    now: time.now,
    onRuntime: (runtime) => {
      live = runtime;
    },
    report: (update: Partial<SupervisedStatus>) => Object.assign(status, update),
    timers: time.timers,
    random: () => options.random ?? 0.5,
  });
  return {
    time,
    controller,
    status,
    logs,
    supervisor,
    live: () => live,
    starts: () => startCount,
  };
}

describe("account supervisor", () => {
  it("restarts a failing account after 1 s, 2 s, 4 s and reports error, count and next retry", async () => {
    const runs = [fakeRuntime("a"), fakeRuntime("b"), fakeRuntime("c"), fakeRuntime("d")];
    const s = setup({ starts: runs.map((run) => async () => run.runtime) });
    await s.supervisor.start();
    expect(s.status).toMatchObject({ running: true, restarts: 0 });
    for (const [index, expectedDelay] of [1_000, 2_000, 4_000].entries()) {
      runs[index]!.fail(`boom ${index}`);
      await s.time.settle();
      expect(s.status).toMatchObject({
        running: false,
        lastError: `boom ${index}`,
        nextRestartAt: s.time.now() + expectedDelay,
        restarts: index,
      });
      expect(s.time.pendingDelays()).toEqual([expectedDelay]);
      await s.time.advance(expectedDelay - 1);
      expect(s.starts()).toBe(index + 1);
      await s.time.advance(1);
      expect(s.starts()).toBe(index + 2);
      expect(s.status).toMatchObject({ running: true, restarts: index + 1 });
      expect(s.status.nextRestartAt).toBeUndefined();
    }
    expect(s.live()).toBe(runs[3]!.runtime);
    expect(s.logs.filter((l) => l.message === "channel account failed; restarting")).toHaveLength(
      3,
    );
  });

  it("keeps the failed runtime for sends until the restart, then stops it before starting anew", async () => {
    const first = fakeRuntime("a");
    const second = fakeRuntime("b");
    const s = setup({ starts: [async () => first.runtime, async () => second.runtime] });
    await s.supervisor.start();
    first.fail("poll died");
    await s.time.settle();
    expect(s.live()).toBe(first.runtime);
    await s.live()!.send({ target: { accountId: "x", peer: { kind: "direct", id: "1" } } });
    await s.time.advance(1_000);
    expect(first.events).toEqual(["a:send", "a:stop"]);
    expect(s.live()).toBe(second.runtime);
  });

  it("retries a start that throws, with backoff", async () => {
    const ok = fakeRuntime("ok");
    const s = setup({
      starts: [
        async () => {
          throw new Error("401 Unauthorized");
        },
        async () => {
          throw new Error("still 401");
        },
        async () => ok.runtime,
      ],
    });
    await s.supervisor.start();
    expect(s.status).toMatchObject({ lastError: "start failed: Error: 401 Unauthorized" });
    expect(s.live()).toBeUndefined();
    await s.time.advance(1_000);
    expect(s.status).toMatchObject({ lastError: "start failed: Error: still 401", restarts: 1 });
    expect(s.time.pendingDelays()).toEqual([2_000]);
    await s.time.advance(2_000);
    expect(s.live()).toBe(ok.runtime);
    expect(s.status).toMatchObject({ running: true, restarts: 2 });
  });

  it("treats a run that ends on its own or whose `ended` rejects as a failure", async () => {
    const quiet = fakeRuntime("quiet");
    const broken = async (): Promise<ChannelAccountRuntime> => ({
      ...fakeRuntime("broken").runtime,
      ended: Promise.reject(new Error("loop threw")),
    });
    const last = fakeRuntime("last");
    const s = setup({ starts: [async () => quiet.runtime, broken, async () => last.runtime] });
    await s.supervisor.start();
    await quiet.runtime.stop(); // the run ends without the supervisor asking
    await s.time.settle();
    expect(s.status.lastError).toBe("the account stopped receiving on its own");
    await s.time.advance(1_000);
    await s.time.settle();
    expect(s.status.lastError).toBe("ended with an error: Error: loop threw");
    await s.time.advance(2_000);
    expect(s.live()).toBe(last.runtime);
  });

  it("resets the backoff after a healthy run and never restarts before the platform's retry-after", async () => {
    const runs = [fakeRuntime("a"), fakeRuntime("b"), fakeRuntime("c"), fakeRuntime("d")];
    const s = setup({ starts: runs.map((run) => async () => run.runtime) });
    await s.supervisor.start();
    runs[0]!.fail("x");
    await s.time.settle();
    await s.time.advance(1_000);
    runs[1]!.fail("x");
    await s.time.settle();
    expect(s.time.pendingDelays()).toEqual([2_000]);
    await s.time.advance(2_000);
    await s.time.advance(DEFAULT_RESTART_POLICY.healthyAfterMs); // run c stays up a healthy while
    runs[2]!.fail("x", 30_000);
    await s.time.settle();
    expect(s.time.pendingDelays()).toEqual([30_000]);
    await s.time.advance(30_000);
    expect(s.live()).toBe(runs[3]!.runtime);
  });

  it("stop() and the account's abort cancel a pending restart", async () => {
    for (const how of ["stop", "abort"] as const) {
      const run = fakeRuntime("a");
      const s = setup({ starts: [async () => run.runtime] });
      await s.supervisor.start();
      run.fail("x");
      await s.time.settle();
      expect(s.time.pendingDelays()).toHaveLength(1);
      if (how === "stop") await s.supervisor.stop();
      else s.controller.abort();
      expect(s.time.pendingDelays()).toHaveLength(0);
      expect(s.status.nextRestartAt).toBeUndefined();
      await s.time.advance(10 * 60_000);
      expect(s.starts()).toBe(1);
    }
  });

  it("a run that ends because the account was stopped is not restarted", async () => {
    const run = fakeRuntime("a");
    const s = setup({ starts: [async () => run.runtime] });
    await s.supervisor.start();
    s.controller.abort();
    run.fail("aborted poll");
    await s.time.settle();
    expect(s.time.pendingDelays()).toHaveLength(0);
    await s.supervisor.stop();
    expect(run.events).toEqual(["a:stop"]);
    expect(s.status.running).toBe(false);
  });
});

describe("restart delay", () => {
  const policy = DEFAULT_RESTART_POLICY;
  it("doubles from 1 s up to 5 min, jittered by ±20 %", () => {
    const plain = [0, 1, 2, 3, 8, 9, 20].map((attempt) =>
      restartDelayMs(policy, attempt, () => 0.5),
    );
    expect(plain).toEqual([1_000, 2_000, 4_000, 8_000, 256_000, 300_000, 300_000]);
    expect(restartDelayMs(policy, 0, () => 0)).toBe(800);
    expect(restartDelayMs(policy, 0, () => 0.999_999)).toBe(1_200);
    expect(restartDelayMs(policy, 30, () => 0.999_999)).toBe(300_000);
  });
});
