// One gateway log line for people: `2026-12-01 10:32:11.123 INFO  message key=value …` (local time, or
// ISO UTC), level coloured on a terminal. Lines that are not JSON records are shown as they are.

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
const LEVEL_COLORS: Record<string, number> = {
  fatal: 35,
  error: 31,
  warn: 33,
  info: 36,
  debug: 90,
  trace: 90,
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

function fieldText(value: unknown): string {
  if (typeof value === "string") return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
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
  const paint = (code: number, text: string) =>
    options.color ? `\u001b[${code}m${text}\u001b[39m` : text;
  const dim = (text: string) => (options.color ? `\u001b[2m${text}\u001b[22m` : text);
  const extra = Object.entries(fields)
    .filter(([key]) => !RECORD_KEYS.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`)
    .join(" ");
  const label = paint(LEVEL_COLORS[level] ?? 39, level.toUpperCase().padEnd(5));
  return `${dim(timeOf(fields.time, options.utc))} ${label} ${msg}${extra ? ` ${dim(extra)}` : ""}`;
}
