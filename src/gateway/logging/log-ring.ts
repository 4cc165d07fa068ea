// The bounded in-memory ring of recent log lines that `logs.tail` serves, and the logger feeding it
// (teed beside the caller's logger by startGateway, so in-process gateways have it without pino).
import { createEntryLogger, type LogEntry, type Logger } from "../../lib/logger.js";

/** Bounded ring of formatted log lines; `cursor` counts every line ever written. */
export class LogRing {
  private readonly lines: string[] = [];
  private written = 0;

  constructor(private readonly capacity = 2000) {}

  /** Appends one line, dropping the oldest when full. */
  push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.shift();
    this.written++;
  }

  /** Lines from `cursor` on (default: the last `limit`), capped at `maxBytes`. */
  tail(params: { cursor?: number; limit: number; maxBytes: number }) {
    const first = this.written - this.lines.length;
    const reset =
      params.cursor !== undefined && (params.cursor < first || params.cursor > this.written);
    const start =
      params.cursor === undefined || reset
        ? Math.max(first, this.written - params.limit)
        : params.cursor;
    let picked = this.lines.slice(start - first, start - first + params.limit);
    const end = start + picked.length;
    let bytes = picked.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    let truncated = false;
    while (bytes > params.maxBytes && picked.length > 0) {
      bytes -= Buffer.byteLength(picked[0]) + 1;
      picked = picked.slice(1);
      truncated = true;
    }
    return { lines: picked, cursor: end, size: this.written, truncated, reset };
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    return `[unserializable: ${err instanceof Error ? err.message : String(err)}]`;
  }
}

/** One ring line: `<ISO time> <level> <msg>` and the fields (child bindings included) as JSON. */
export function formatRingLine(entry: LogEntry, now: number): string {
  const { fields } = entry;
  const extra = Object.keys(fields).length > 0 ? ` ${safeJson(fields)}` : "";
  return `${new Date(now).toISOString()} ${entry.level} ${entry.msg}${extra}`;
}

/** A logger recording every line in `ring`. */
export function createRingLogger(ring: LogRing, now: () => number = Date.now): Logger {
  return createEntryLogger((entry) => ring.push(formatRingLine(entry, now())));
}
