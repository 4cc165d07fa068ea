// The gateway's logger: a tiny interface (pino-compatible shape, not pino) passed in by the caller,
// wrapped so every line also lands in a bounded in-memory ring that `logs.tail` serves.

/** Structured fields of a log line. */
export type LogFields = Record<string, unknown>;

/** What the gateway logs through; the CLI passes a stdout writer, tests a silent one. */
export interface GatewayLogger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  debug?(message: string, fields?: LogFields): void;
}

/** A logger that drops everything. */
export const silentGatewayLogger: GatewayLogger = { info() {}, warn() {}, error() {} };

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

function formatLine(level: string, message: string, fields?: LogFields): string {
  const extra = fields && Object.keys(fields).length > 0 ? ` ${safeJson(fields)}` : "";
  return `${new Date().toISOString()} ${level} ${message}${extra}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    return `[unserializable: ${err instanceof Error ? err.message : String(err)}]`;
  }
}

/** Wraps `base` so every line is also recorded in `ring`. */
export function teeLogger(base: GatewayLogger, ring: LogRing): GatewayLogger {
  return {
    info: (message, fields) => {
      ring.push(formatLine("info", message, fields));
      base.info(message, fields);
    },
    warn: (message, fields) => {
      ring.push(formatLine("warn", message, fields));
      base.warn(message, fields);
    },
    error: (message, fields) => {
      ring.push(formatLine("error", message, fields));
      base.error(message, fields);
    },
    debug: (message, fields) => {
      ring.push(formatLine("debug", message, fields));
      base.debug?.(message, fields);
    },
  };
}
