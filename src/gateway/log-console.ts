// How gateway log records look on the console: `pretty` (a coloured one-liner, the TTY default),
// `compact` (plain one-liner with ISO time) or `json` (the record as written to the file), and
// the console masking of secrets (`logging.redactSensitive`, `logging.redactPatterns`), and the
// JSON-only console of `pincer gateway --json` (any text that is not a JSON record becomes one).
import { dimText, fieldText, levelLabel } from "../lib/log-line-style.js";

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

/** Secret shapes masked on the console unless `logging.redactSensitive` is "off". */
export const DEFAULT_REDACT_PATTERNS: readonly string[] = [
  String.raw`\bsk-[A-Za-z0-9_-]{8,}`,
  String.raw`\bBearer\s+([A-Za-z0-9._~+/-]+=*)`,
  String.raw`"(?:token|password|secret|apiKey|api_key|botToken|appToken)"\s*:\s*"([^"]+)"`,
  String.raw`\b(?:token|password|secret|apiKey|api_key)=([^\s&"]+)`,
  String.raw`--(?:token|password)\s+(\S+)`,
  String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
  String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
  String.raw`\b\d{6,}:[A-Za-z0-9_-]{30,}`,
];

/** Compiles a pattern: `/body/flags`, else a raw regex used with `gi`. */
export function compileRedactPattern(pattern: string): RegExp {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (literal) {
    const flags = literal[2].includes("g") ? literal[2] : `${literal[2]}g`;
    return new RegExp(literal[1], flags);
  }
  return new RegExp(pattern, "gi");
}

/** Keeps the first 6 and last 4 characters of long secrets; short ones become `***`. */
export function maskSecret(secret: string): string {
  return secret.length >= 18 ? `${secret.slice(0, 6)}…${secret.slice(-4)}` : "***";
}

/** A function masking every match of `patterns` (the last capture group, else the whole match). */
export function createRedactor(patterns: readonly string[]): (text: string) => string {
  const compiled = patterns.map(compileRedactPattern);
  return (text) => {
    let out = text;
    for (const regex of compiled) {
      out = out.replace(regex, (match: string, ...rest: unknown[]) => {
        const groups = rest.slice(0, -2).filter((group) => typeof group === "string") as string[];
        const secret = groups.at(-1);
        if (!secret) return maskSecret(match);
        const at = match.lastIndexOf(secret);
        return `${match.slice(0, at)}${maskSecret(secret)}${match.slice(at + secret.length)}`;
      });
    }
    return out;
  };
}

/** Builds one console record as a JSON line (no newline), in the shape pino writes. */
export function consoleRecordLine(params: {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
  now: () => number;
  pid: number;
}): string {
  const { level, msg, fields, now, pid } = params;
  return JSON.stringify({ level, time: new Date(now()).toISOString(), pid, ...fields, msg });
}

function isJsonRecord(line: string): boolean {
  if (!line.startsWith("{") || !line.endsWith("}")) return false;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    // Looks like an object but is not JSON: it gets wrapped like any other text line.
    return false;
  }
}

// ANSI escape sequences (colours): never part of a wrapped message.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Wraps a text sink so everything written through it is JSON lines: a line that already is a JSON
 * object passes through; any other line becomes a record with `level` and the text as `msg`.
 */
export function jsonLinesSink(params: {
  write: (text: string) => void;
  level: string;
  now: () => number;
  pid: number;
}): (text: string) => void {
  return (text) => {
    for (const raw of text.split("\n")) {
      const line = raw.replace(ANSI, "").trimEnd();
      if (!line.trim()) continue;
      params.write(`${isJsonRecord(line) ? line : consoleRecordLine({ ...params, msg: line })}\n`);
    }
  };
}
