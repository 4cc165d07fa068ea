// One gateway log line for people: `2026-12-01 10:32:11.123 INFO  message key=value …` (local time, or
// ISO UTC), level coloured on a terminal. Lines that are not JSON records are shown as they are.
import { dimText, fieldText, levelLabel } from "../../lib/log-line-style.js";

/** How {@link formatLogLine} renders. */
export interface LogFormatOptions {
  utc: boolean;
  color: boolean;
}

// pino's numeric levels, for files written with numeric labels.
const NUMERIC_LEVELS: Record<number, string> = {
  10: "trace",
  20: "debug",
  30: "info",
  40: "warn",
  50: "error",
  60: "fatal",
};
const RECORD_KEYS = new Set(["level", "time", "msg", "message", "pid", "hostname"]);

function levelOf(value: unknown): string {
  if (typeof value === "number") return NUMERIC_LEVELS[value] ?? String(value);
  return typeof value === "string" ? value.toLowerCase() : "info";
}

function timeOf(value: unknown, utc: boolean): string {
  const date = new Date(typeof value === "number" || typeof value === "string" ? value : NaN);
  if (Number.isNaN(date.getTime())) return typeof value === "string" ? value : "-";
  if (utc) return date.toISOString();
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const clock = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${day} ${clock}.${pad(date.getMilliseconds(), 3)}`;
}

/** Formats one line of the log file (without a newline). */
export function formatLogLine(line: string, options: LogFormatOptions): string {
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    // A torn or foreign line: shown as is rather than hidden.
    return line;
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) return line;
  const fields = record as Record<string, unknown>;
  const level = levelOf(fields.level);
  const msg = typeof fields.msg === "string" ? fields.msg : String(fields.message ?? "");
  const dim = (text: string) => dimText(text, options.color);
  const extra = Object.entries(fields)
    .filter(([key]) => !RECORD_KEYS.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`)
    .join(" ");
  const label = levelLabel(level, options.color);
  return `${dim(timeOf(fields.time, options.utc))} ${label} ${msg}${extra ? ` ${dim(extra)}` : ""}`;
}
