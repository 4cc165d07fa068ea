// The one logger shape of the codebase, pino's: `info(fields, msg)` or `info(msg)`, and
// `child(bindings)` whose bindings appear in every line it writes. The daemon passes a real pino
// logger (src/gateway/logging/daemon-logger.ts); everything else gets the silent logger or a logger
// built here on a plain callback, so in-process gateways, the CLI and tests never load pino.

/** Structured fields of a log line. */
export type LogFields = Record<string, unknown>;

/** The levels the codebase logs at (pino's names). */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** One level's method: fields first and the message second, or the message alone (pino's order). */
export interface LogMethod {
  (fields: LogFields, msg?: string): void;
  (msg: string): void;
}

/** What every module logs through; a pino logger is one. */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** A logger adding `bindings` to every line (a call's own fields win on a clash). */
  child(bindings: LogFields): Logger;
}

/** One line as a callback logger hands it over: the child bindings merged into `fields`. */
export interface LogEntry {
  level: LogLevel;
  msg: string;
  fields: LogFields;
}

/** A logger that drops everything (the default where a caller passes none). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child: () => silentLogger,
};

/**
 * A logger handing each line to `write` as a {@link LogEntry}; the base of the `logs.tail` ring,
 * the CLI's stderr warnings and the recorders of tests. No pino.
 */
export function createEntryLogger(
  write: (entry: LogEntry) => void,
  bindings: LogFields = {},
): Logger {
  const at =
    (level: LogLevel): LogMethod =>
    (first: LogFields | string, msg?: string) => {
      const own = typeof first === "string" ? {} : first;
      const text = typeof first === "string" ? first : (msg ?? "");
      write({ level, msg: text, fields: { ...bindings, ...own } });
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (more) => createEntryLogger(write, { ...bindings, ...more }),
  };
}

/** A logger writing every line to `a`, then to `b` (children of both for a child). */
export function teeLogger(a: Logger, b: Logger): Logger {
  const at =
    (level: LogLevel): LogMethod =>
    (first: LogFields | string, msg?: string) => {
      for (const logger of [a, b]) {
        if (typeof first === "string") logger[level](first);
        else logger[level](first, msg);
      }
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (bindings) => teeLogger(a.child(bindings), b.child(bindings)),
  };
}
