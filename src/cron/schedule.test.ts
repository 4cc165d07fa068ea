// Schedules on an injected time: delays and ISO inputs, every with and without an anchor, cron
// expressions in a zone across both DST edges, stagger, and the errors that name what is wrong.
import { describe, expect, it } from "vitest";
import {
  describeSchedule,
  nextRunAtMs,
  parseAtInput,
  parseDurationText,
  parseIsoMs,
  scheduleProblem,
  staggerOffsetMs,
} from "./schedule.js";

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const next = (schedule: Parameters<typeof nextRunAtMs>[0]["schedule"], nowMs = NOW, jobId = "j1") =>
  nextRunAtMs({ schedule, jobId, createdAtMs: NOW, nowMs });
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe("cron schedule inputs", () => {
  it("parses delays with a unit and refuses bare numbers", () => {
    expect(parseDurationText("20m")).toBe(1_200_000);
    expect(parseDurationText("1h30m")).toBe(5_400_000);
    expect(parseDurationText("1d")).toBe(86_400_000);
    expect(parseDurationText("500ms")).toBe(500);
    expect(parseDurationText("20")).toBeUndefined();
    expect(parseDurationText("soon")).toBeUndefined();
  });

  it("turns --at 20m / +20m into an instant from now and reads ISO times without a zone as UTC", () => {
    expect(parseAtInput("20m", NOW)).toEqual({ ok: true, at: "2026-01-10T12:20:00.000Z" });
    expect(parseAtInput("+1h", NOW)).toEqual({ ok: true, at: "2026-01-10T13:00:00.000Z" });
    expect(parseAtInput("2026-02-01T16:00:00", NOW)).toEqual({
      ok: true,
      at: "2026-02-01T16:00:00.000Z",
    });
    expect(parseAtInput("2026-02-01T16:00:00+01:00", NOW)).toEqual({
      ok: true,
      at: "2026-02-01T15:00:00.000Z",
    });
    const bad = parseAtInput("tomorrow-ish", NOW);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toContain('"tomorrow-ish"');
    expect(parseIsoMs("12:00")).toBeUndefined();
  });

  it("names a bad expression, field count or zone", () => {
    expect(scheduleProblem({ kind: "cron", expr: "61 * * * *" })).toMatch(
      /schedule.expr "61 \* \* \* \*" is not a valid cron expression/,
    );
    expect(scheduleProblem({ kind: "cron", expr: "* * *" })).toMatch(/has 3 fields/);
    expect(scheduleProblem({ kind: "cron", expr: "0 7 * * *", tz: "Mars/Olympus" })).toMatch(
      /schedule.tz "Mars\/Olympus" is not a known IANA time zone/,
    );
    expect(scheduleProblem({ kind: "at", at: "next week" })).toMatch(/schedule.at "next week"/);
    expect(scheduleProblem({ kind: "cron", expr: "*/10 * * * * *" })).toBeUndefined();
    expect(scheduleProblem({ kind: "every", everyMs: 60_000 })).toBeUndefined();
  });
});

describe("next run", () => {
  it("gives an at job its time, even a past one (a missed one-shot runs once)", () => {
    expect(iso(next({ kind: "at", at: "2026-01-10T12:20:00Z" }))).toBe("2026-01-10T12:20:00.000Z");
    expect(iso(next({ kind: "at", at: "2026-01-01T00:00:00Z" }))).toBe("2026-01-01T00:00:00.000Z");
  });

  it("steps every jobs from their anchor (creation time by default), strictly after now", () => {
    const every = { kind: "every" as const, everyMs: 600_000 };
    expect(iso(next(every))).toBe("2026-01-10T12:10:00.000Z");
    expect(iso(next(every, NOW + 600_000))).toBe("2026-01-10T12:20:00.000Z");
    // Down for 3 hours: the next slot after now, not 18 catch-up slots.
    expect(iso(next(every, NOW + 3 * 3_600_000 + 1))).toBe("2026-01-10T15:10:00.000Z");
    const anchored = { ...every, anchorMs: Date.UTC(2026, 0, 10, 12, 3) };
    expect(iso(next(anchored))).toBe("2026-01-10T12:03:00.000Z");
    expect(iso(next(anchored, Date.UTC(2026, 0, 10, 12, 4)))).toBe("2026-01-10T12:13:00.000Z");
  });

  it("runs a cron expression in its zone, across the spring-forward and fall-back edges", () => {
    const nine = { kind: "cron" as const, expr: "0 9 * * *", tz: "America/New_York" };
    const start = Date.UTC(2026, 2, 7, 0, 0);
    const first = next(nine, start);
    const second = next(nine, first);
    // 09:00 EST is 14:00Z; after the switch on Mar 8, 09:00 EDT is 13:00Z.
    expect([iso(first), iso(second)]).toEqual([
      "2026-03-07T14:00:00.000Z",
      "2026-03-08T13:00:00.000Z",
    ]);
    // 02:30 does not exist on Mar 8: the run comes at the first valid time after the gap, once.
    const gap = { kind: "cron" as const, expr: "30 2 * * *", tz: "America/New_York" };
    const g1 = next(gap, start);
    const g2 = next(gap, g1);
    const g3 = next(gap, g2);
    expect([iso(g1), iso(g2), iso(g3)]).toEqual([
      "2026-03-07T07:30:00.000Z",
      "2026-03-08T07:00:00.000Z",
      "2026-03-09T06:30:00.000Z",
    ]);
    // 01:30 happens twice on Nov 1: one run, not two.
    const twice = { kind: "cron" as const, expr: "30 1 * * *", tz: "America/New_York" };
    const f1 = next(twice, Date.UTC(2026, 10, 1, 0, 0));
    expect([iso(f1), iso(next(twice, f1))]).toEqual([
      "2026-11-01T05:30:00.000Z",
      "2026-11-02T06:30:00.000Z",
    ]);
  });

  it("shifts a staggered cron job by a fixed offset per job id, within the window", () => {
    const hourly = { kind: "cron" as const, expr: "0 * * * *", tz: "UTC", staggerMs: 300_000 };
    const offsetA = staggerOffsetMs("job-a", 300_000);
    const offsetB = staggerOffsetMs("job-b", 300_000);
    expect(offsetA).toBe(staggerOffsetMs("job-a", 300_000));
    expect(offsetA).not.toBe(offsetB);
    for (const offset of [offsetA, offsetB]) {
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(300_000);
    }
    // At 12:00 sharp the 12:00 slot, shifted, is still ahead; once it ran, the 13:00 one.
    const a = next(hourly, NOW, "job-a");
    expect(a).toBe(Date.UTC(2026, 0, 10, 12, 0) + offsetA);
    expect(next(hourly, a, "job-a")).toBe(Date.UTC(2026, 0, 10, 13, 0) + offsetA);
    expect(staggerOffsetMs("job-a", undefined)).toBe(0);
  });

  it("describes schedules for the CLI", () => {
    expect(describeSchedule({ kind: "every", everyMs: 5_400_000 })).toBe("every 1h30m");
    expect(describeSchedule({ kind: "cron", expr: "0 7 * * *", tz: "Europe/Madrid" })).toBe(
      "cron 0 7 * * * @ Europe/Madrid",
    );
  });
});
