// Cron schedules, pure over an injected time: parsing the human inputs (`--at 20m`, `--every 1h`,
// ISO times), checking a schedule (a bad expression or zone is an error naming it), the stagger
// offset (deterministic per job id) and the next run. Cron expressions and zones go through croner
// (5 fields, or 6 with seconds); an ISO time without a zone is UTC, as in OpenClaw. croner is
// required on first use (its CommonJS build, synchronously): a gateway without cron jobs never loads it.
import type { Cron } from "croner";
import { requireCommonJs } from "../lib/require-commonjs.js";
import type { CronSchedule } from "./types.js";

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** Parses "20m", "1h30m", "90s", "1d", "500ms" (a unit is required); undefined when malformed. */
export function parseDurationText(text: string): number | undefined {
  const trimmed = text.trim().toLowerCase();
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join("") !== trimmed) return undefined;
  const total = parts.reduce((sum, part) => sum + Number(part[1]) * (UNIT_MS[part[2]!] ?? 0), 0);
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

/** The instant of an ISO time (`2026-02-01T16:00:00Z`; without a zone: UTC); undefined if not one. */
export function parseIsoMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(trimmed);
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed);
  const ms = Date.parse(dateOnly ? `${trimmed}T00:00:00Z` : zoned ? trimmed : `${trimmed}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `--at`: an ISO time, or a delay from now (`20m`, `+20m`) → the ISO instant; else an error. */
export function parseAtInput(
  text: string,
  nowMs: number,
): { ok: true; at: string } | { ok: false; error: string } {
  const trimmed = text.trim();
  const delay = parseDurationText(trimmed.replace(/^\+/, ""));
  if (delay !== undefined) return { ok: true, at: new Date(nowMs + delay).toISOString() };
  const ms = parseIsoMs(trimmed);
  if (ms !== undefined) return { ok: true, at: new Date(ms).toISOString() };
  return {
    ok: false,
    error: `"${text}" is neither an ISO time (2026-02-01T16:00:00Z) nor a delay (20m, +1h)`,
  };
}

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    // Intl throws a RangeError for an unknown zone: that is the answer, not a failure.
    return false;
  }
}

function cronOf(expr: string, tz: string | undefined): Cron {
  const { Cron } = requireCommonJs<typeof import("croner")>("croner");
  return new Cron(expr, { paused: true, mode: "5-or-6-parts", ...(tz ? { timezone: tz } : {}) });
}

/** Why a schedule cannot run (a bad time, interval, expression or zone), or undefined when it can. */
export function scheduleProblem(schedule: CronSchedule): string | undefined {
  switch (schedule.kind) {
    case "at":
      return parseIsoMs(schedule.at) === undefined
        ? `schedule.at "${schedule.at}" is not an ISO time (e.g. 2026-02-01T16:00:00Z)`
        : undefined;
    case "every":
      return Number.isInteger(schedule.everyMs) && schedule.everyMs >= 1
        ? undefined
        : `schedule.everyMs ${schedule.everyMs} is not a positive whole number of ms`;
    case "cron": {
      if (schedule.tz && !isValidTimeZone(schedule.tz))
        return `schedule.tz "${schedule.tz}" is not a known IANA time zone (e.g. Europe/Madrid)`;
      const fields = schedule.expr.trim().split(/\s+/).length;
      if (fields !== 5 && fields !== 6)
        return `schedule.expr "${schedule.expr}" has ${fields} fields; a cron expression has 5 (or 6 with seconds)`;
      try {
        cronOf(schedule.expr, schedule.tz);
        return undefined;
      } catch (err) {
        return `schedule.expr "${schedule.expr}" is not a valid cron expression: ${(err as Error).message}`;
      }
    }
  }
}

/** A job's stagger offset in [0, staggerMs): the same for the same id (FNV-1a of the id). */
export function staggerOffsetMs(jobId: string, staggerMs: number | undefined): number {
  if (!staggerMs || staggerMs <= 0) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < jobId.length; i++) {
    hash ^= jobId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % Math.floor(staggerMs);
}

/** What the next run is computed from. */
export interface NextRunInput {
  schedule: CronSchedule;
  jobId: string;
  /** The anchor of an `every` job without `anchorMs`. */
  createdAtMs: number;
  nowMs: number;
}

/**
 * The next instant the schedule fires strictly after now (an `at` job: its time, even when past, so a
 * missed one-shot runs once); undefined when it never does (a bad schedule).
 */
export function nextRunAtMs(input: NextRunInput): number | undefined {
  const { schedule, nowMs } = input;
  switch (schedule.kind) {
    case "at":
      return parseIsoMs(schedule.at);
    case "every": {
      const every = schedule.everyMs;
      if (!(every >= 1)) return undefined;
      const anchor = schedule.anchorMs ?? input.createdAtMs;
      if (nowMs < anchor) return anchor;
      return anchor + (Math.floor((nowMs - anchor) / every) + 1) * every;
    }
    case "cron": {
      if (scheduleProblem(schedule) !== undefined) return undefined;
      const offset = staggerOffsetMs(input.jobId, schedule.staggerMs);
      // The slot s fires at s + offset: the next slot after (now - offset).
      const next = cronOf(schedule.expr, schedule.tz).nextRun(new Date(nowMs - offset));
      return next ? next.getTime() + offset : undefined;
    }
  }
}

/** A short human description of a schedule (`every 10m`, `cron 0 7 * * * @ Europe/Madrid`). */
export function describeSchedule(schedule: CronSchedule): string {
  switch (schedule.kind) {
    case "at":
      return `at ${schedule.at}`;
    case "every":
      return `every ${formatDurationMs(schedule.everyMs)}`;
    case "cron":
      return `cron ${schedule.expr}${schedule.tz ? ` @ ${schedule.tz}` : ""}${
        schedule.staggerMs ? ` (stagger ${formatDurationMs(schedule.staggerMs)})` : ""
      }`;
  }
}

/** 90000 → "1m30s"; whole units only, largest first. */
export function formatDurationMs(ms: number): string {
  const units: Array<[string, number]> = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ];
  let rest = Math.max(0, Math.round(ms));
  let text = "";
  for (const [unit, size] of units) {
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return rest > 0 || text === "" ? `${text}${rest}ms` : text;
}
