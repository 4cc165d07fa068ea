// How gateway log records look on the console: `pretty` (a coloured one-liner, the TTY default),
// `compact` (plain one-liner with ISO time) or `json` (the record as written to the file). pino has
// no formatter of its own without pino-pretty (not a dependency); this one is its console destination.
import { dimText, fieldText, levelLabel } from "../../lib/log-line-style.js";

/** Console formats of `logging.consoleStyle`. */
export type ConsoleStyle = "pretty" | "compact" | "json";

/** One log record as pino writes it (level as a label). */
export interface LogRecord {
  level: string;
  time: string;
  msg: string;
  [field: string]: unknown;
}

const RECORD_KEYS = new Set(["level", "time", "msg", "pid"]);

function localClock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** Formats a record as one console line (without the newline). */
export function formatConsoleRecord(
  record: LogRecord,
  options: { style: ConsoleStyle; color: boolean },
): string {
  const extra = Object.entries(record).filter(([key]) => !RECORD_KEYS.has(key));
  if (options.style === "json") return JSON.stringify(record);
  if (options.style === "compact") {
    const fields = extra.length ? ` ${JSON.stringify(Object.fromEntries(extra))}` : "";
    return `${record.time} ${record.level} ${record.msg}${fields}`;
  }
  const dim = (text: string) => dimText(text, options.color);
  const level = levelLabel(record.level, options.color);
  const fields = extra.map(([key, value]) => `${key}=${fieldText(value)}`).join(" ");
  return `${dim(localClock(record.time))} ${level} ${record.msg}${fields ? ` ${dim(fields)}` : ""}`;
}
