// The scheduler on a manual clock and manual timers: one timer for the soonest job (re-armed on
// change), a missed slot after downtime run once, one-shots deleted after success (kept disabled
// with deleteAfterRun false, disabled with the error after a failure), the concurrency bound, the
// run log; and the store: a malformed jobs.json reported with its path and never overwritten.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { silentLogger } from "../lib/logger.js";
import { readRunLog } from "./run-log.js";
import { CronService, type CronTimers } from "./service.js";
import { cronPaths, loadCronStore } from "./store.js";
import type { CronEvent, CronJob, CronRunOutcome } from "./types.js";

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);

function harness(
  options: { maxConcurrentRuns?: number; skipMissed?: boolean; stateDir?: string } = {},
) {
  let now = T0;
  const timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 0;
  const manual: CronTimers = {
    set: (fn, ms) => {
      const id = ++nextId;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clear: (handle) => {
      const i = timers.findIndex((t) => t.id === handle);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const stateDir = options.stateDir ?? makeTempDir("pincer-cron-");
  const paths = cronPaths({ stateDir });
  const events: CronEvent[] = [];
  const executed: string[] = [];
  const pending: Array<(outcome: CronRunOutcome) => void> = [];
  let hold = false;
  let outcome: CronRunOutcome = { status: "ok", summary: "done", deliveryStatus: "not-requested" };
  let ids = 0;
  const service = new CronService({
    paths,
    now: () => now,
    timers: manual,
    logger: silentLogger,
    newId: () => `id${++ids}`,
    settings: () => ({
      enabled: true,
      maxConcurrentRuns: options.maxConcurrentRuns ?? 1,
      skipMissed: options.skipMissed ?? false,
      runLog: { maxBytes: 2_000_000, keepLines: 2000 },
    }),
    emit: (event) => events.push(event),
    execute: (job) => {
      executed.push(job.id);
      return hold ? new Promise((resolve) => pending.push(resolve)) : Promise.resolve(outcome);
    },
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    service,
    paths,
    stateDir,
    events,
    executed,
    pending,
    timers,
    hold: (on: boolean) => {
      hold = on;
    },
    fail: (error: string) => {
      outcome = { status: "error", error, deliveryStatus: "unknown" };
    },
    /** Moves the clock to `ms` and fires the timers due by then. */
    async advanceTo(ms: number) {
      now = ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.splice(timers.indexOf(due), 1);
        due.fn();
        await settle();
      }
      await settle();
    },
    setNow: (ms: number) => {
      now = ms;
    },
  };
}

const turn = (message = "hi") => ({ kind: "agentTurn" as const, message });
const add = (h: ReturnType<typeof harness>, input: Partial<Parameters<CronService["add"]>[0]>) => {
  const result = h.service.add({
    name: "job",
    schedule: { kind: "every", everyMs: 600_000 },
    sessionTarget: "isolated",
    payload: turn(),
    delivery: { mode: "none" },
    ...input,
  });
  if (!result.ok) throw new Error(result.error);
  return result.value;
};

describe("cron service", () => {
  it("arms one timer for the soonest job and re-arms it on change", async () => {
    const h = harness();
    h.service.start();
    expect(h.timers).toHaveLength(0);
    const hourly = add(h, { schedule: { kind: "every", everyMs: 3_600_000 } });
    expect(h.timers.map((t) => t.at)).toEqual([T0 + 3_600_000]);
    add(h, { schedule: { kind: "every", everyMs: 600_000 } });
    expect(h.timers.map((t) => t.at)).toEqual([T0 + 600_000]);
    await h.advanceTo(T0 + 600_000);
    expect(h.executed).toEqual(["id2"]);
    expect(h.timers.map((t) => t.at)).toEqual([T0 + 1_200_000]);
    h.service.update(hourly.id, { enabled: false });
    h.service.remove("id2");
    expect(h.timers).toHaveLength(0);
  });

  it("runs a slot missed while down once, then steps from the time it ran", async () => {
    const stateDir = makeTempDir("pincer-cron-");
    const first = harness({ stateDir });
    first.service.start();
    const job = add(first, {});
    await first.service.close();
    // Three hours later: 18 slots passed, one run.
    const second = harness({ stateDir });
    second.setNow(T0 + 3 * 3_600_000 + 5);
    second.service.start();
    await second.advanceTo(T0 + 3 * 3_600_000 + 5);
    expect(second.executed).toEqual([job.id]);
    expect(second.service.get(job.id)?.state.nextRunAtMs).toBe(T0 + 3 * 3_600_000 + 600_000);
    expect(second.timers.map((t) => t.at)).toEqual([T0 + 3 * 3_600_000 + 600_000]);
    // With cron.skipMissedJobs the missed slot is skipped instead.
    const third = harness({ stateDir, skipMissed: true });
    third.setNow(T0 + 10 * 3_600_000 + 5);
    third.service.start();
    await third.advanceTo(T0 + 10 * 3_600_000 + 5);
    expect(third.executed).toEqual([]);
  });

  it("deletes a one-shot after success, keeps it disabled with deleteAfterRun false, disables it after a failure", async () => {
    const h = harness();
    h.service.start();
    const once = add(h, { schedule: { kind: "at", at: new Date(T0 + 60_000).toISOString() } });
    const kept = add(h, {
      schedule: { kind: "at", at: new Date(T0 + 60_000).toISOString() },
      deleteAfterRun: false,
    });
    h.service.start();
    await h.advanceTo(T0 + 60_000);
    await h.advanceTo(T0 + 60_001);
    expect(h.service.get(once.id)).toBeUndefined();
    expect(h.service.get(kept.id)).toMatchObject({ enabled: false, state: { lastStatus: "ok" } });
    expect(h.events.filter((e) => e.jobId === once.id).map((e) => e.action)).toEqual([
      "added",
      "started",
      "finished",
      "removed",
    ]);
    h.fail("model down");
    const broken = add(h, { schedule: { kind: "at", at: new Date(T0 + 120_000).toISOString() } });
    await h.advanceTo(T0 + 120_000);
    expect(h.service.get(broken.id)).toMatchObject({
      enabled: false,
      state: { lastStatus: "error", lastError: "model down", consecutiveErrors: 1 },
    });
    expect(readRunLog(h.paths.runsDir, broken.id)).toMatchObject([
      { jobId: broken.id, status: "error", error: "model down" },
    ]);
    const stored = JSON.parse(readFileSync(h.paths.jobsPath, "utf8"));
    expect(stored.jobs.map((j: CronJob) => j.id).sort()).toEqual([broken.id, kept.id].sort());
  });

  it("backs a failing recurring job off and never runs more than maxConcurrentRuns at once", async () => {
    const h = harness({ maxConcurrentRuns: 1 });
    h.service.start();
    h.hold(true);
    const a = add(h, {});
    const b = add(h, {});
    await h.advanceTo(T0 + 600_000);
    expect(h.executed).toEqual([a.id]);
    expect(h.service.run(a.id).ok && h.service.run(a.id)).toMatchObject({
      value: { ran: false, reason: "already-running" },
    });
    h.pending.shift()?.({ status: "error", error: "boom", deliveryStatus: "unknown" });
    await h.advanceTo(T0 + 600_000);
    expect(h.executed).toEqual([a.id, b.id]);
    // 1st consecutive error: 30 s backoff, but the next slot (10 min) is later anyway.
    expect(h.service.get(a.id)?.state).toMatchObject({
      consecutiveErrors: 1,
      nextRunAtMs: T0 + 1_200_000,
    });
  });

  it("reports a malformed jobs.json with its path and never writes over it", () => {
    const stateDir = makeTempDir("pincer-cron-");
    const paths = cronPaths({ stateDir });
    const h = harness({ stateDir });
    h.service.start();
    add(h, {});
    writeFileSync(paths.jobsPath, "{ not json");
    const loaded = loadCronStore(paths.jobsPath);
    expect(loaded.ok).toBe(false);
    expect(!loaded.ok && loaded.error).toContain(paths.jobsPath);
    const again = harness({ stateDir });
    again.service.start();
    expect(again.service.status()).toMatchObject({
      error: expect.stringContaining(paths.jobsPath),
    });
    const refused = again.service.add({
      name: "x",
      schedule: { kind: "every", everyMs: 1000 },
      sessionTarget: "isolated",
      payload: turn(),
    });
    expect(refused).toMatchObject({ ok: false, code: "unavailable" });
    expect(readFileSync(paths.jobsPath, "utf8")).toBe("{ not json");
  });

  it("loads an OpenClaw jobs.json, keeping an entry it cannot use verbatim", () => {
    const stateDir = makeTempDir("pincer-cron-");
    const paths = cronPaths({ stateDir });
    const openclaw = {
      version: 1,
      jobs: [
        {
          id: "job-1",
          agentId: "main",
          name: "Morning brief",
          enabled: true,
          createdAtMs: T0,
          updatedAtMs: T0,
          schedule: { kind: "cron", expr: "0 7 * * *", tz: "America/Los_Angeles" },
          sessionTarget: "isolated",
          wakeMode: "next-heartbeat",
          payload: { kind: "agentTurn", message: "Summarize overnight updates." },
          delivery: { mode: "announce", channel: "slack", to: "channel:C1", bestEffort: true },
          state: { nextRunAtMs: T0 + 1000, lastStatus: "ok" },
        },
        {
          id: "weird",
          schedule: { kind: "someday" },
          payload: { kind: "agentTurn", message: "x" },
        },
      ],
    };
    mkdirSync(dirname(paths.jobsPath), { recursive: true });
    writeFileSync(paths.jobsPath, JSON.stringify(openclaw));
    const h = harness({ stateDir });
    h.service.start();
    expect(h.service.list({}).jobs.map((j) => j.id)).toEqual(["job-1"]);
    add(h, {});
    const stored = JSON.parse(readFileSync(paths.jobsPath, "utf8"));
    expect(stored.jobs.map((j: CronJob) => j.id)).toEqual(["job-1", "id1", "weird"]);
    expect(stored.jobs[2]).toEqual(openclaw.jobs[1]);
  });
});
