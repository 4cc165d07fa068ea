// The daemon's real logger: one pino logger (child loggers, levels, JSON records) with two pino
// destinations in a multistream: the rotating log file (`logging.level`, default info) and the
// console (`logging.consoleLevel`, default info) in the console style with secrets masked. The
// destinations are ours because pino cannot do those parts without more dependencies: size-based
// rotation with numbered archives (pino-roll), the pretty/compact styles (pino-pretty), and masking
// secrets inside message text by pattern (pino's `redact` censors object paths only).
// Loaded only by `pincer gateway run` (pino costs ~60 ms to import; `pincer --help` never pays it),
// whose `startDaemonLogger` opens the file and console sinks at once but imports pino only on
// `flush()` (after the gateway listens): lines logged before are written then, with their own time.
import type { pino as PinoFactory } from "pino";
import type { Logger } from "../../lib/logger.js";
import type { LoggingConfig } from "../../protocol/config/index.js";
import { type ConsoleStyle, formatConsoleRecord, type LogRecord } from "./console-format.js";
import { createRedactor, DEFAULT_REDACT_PATTERNS } from "./console-redact.js";
import { createDeferredLogger } from "./deferred-logger.js";
import { RotatingLogFile } from "./rotating-file.js";

type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
const ORDER: Level[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** Inputs of {@link createDaemonLogger}. */
export interface DaemonLoggerParams {
  logging?: LoggingConfig;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Default console style: pretty on a terminal, JSON lines otherwise. */
  isTty: boolean;
  color: boolean;
  /** Overrides `logging.consoleStyle` (the `--json` flag). */
  consoleStyle?: ConsoleStyle;
  /** Directory of the dated default file (default /tmp/openclaw). */
  logDir?: string;
  now: () => number;
}

/** The daemon's pino logger and the log file it owns; `close` releases the file. */
export interface DaemonLogging {
  logger: Logger;
  /** The file written now, if any. */
  readonly file: string | undefined;
  close(): void;
}

/** A {@link DaemonLogging} whose pino loads on `flush()`. */
export interface StartedDaemonLogging extends DaemonLogging {
  /** Imports pino (once) and writes every line logged so far; never rejects. */
  flush(): Promise<void>;
}

function openLogFile(params: DaemonLoggerParams): RotatingLogFile | Error {
  try {
    const logging = params.logging ?? {};
    return new RotatingLogFile({
      ...(logging.file ? { file: logging.file } : {}),
      ...(params.logDir ? { dir: params.logDir } : {}),
      ...(logging.maxFileBytes ? { maxFileBytes: logging.maxFileBytes } : {}),
      now: params.now,
    });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

interface DaemonSinks {
  streams: Array<{ level: Exclude<Level, "silent">; stream: { write(line: string): void } }>;
  file: RotatingLogFile | Error | undefined;
  fileOk(): boolean;
}

/** The file and console destinations of the `logging` config block (the file opened now). */
function openSinks(params: DaemonLoggerParams): DaemonSinks {
  const logging = params.logging ?? {};
  // The schema's level unions are spread literals; their static type is not narrow.
  const fileLevel = (logging.level ?? "info") as Level;
  const consoleLevel = (logging.consoleLevel ?? "info") as Level;
  const style: ConsoleStyle =
    params.consoleStyle ?? logging.consoleStyle ?? (params.isTty ? "pretty" : "json");
  const redact =
    logging.redactSensitive === "off"
      ? (text: string) => text
      : createRedactor(logging.redactPatterns ?? DEFAULT_REDACT_PATTERNS);
  const file = fileLevel === "silent" ? undefined : openLogFile(params);
  let fileFailed = false;
  const fileSink = {
    write(line: string) {
      if (!(file instanceof RotatingLogFile) || fileFailed) return;
      try {
        file.write(line);
      } catch (err) {
        fileFailed = true;
        params.stderr(
          `log file ${file.currentPath} failed; file logging stopped: ${String(err)}\n`,
        );
      }
    },
  };
  const consoleSink = {
    write(line: string) {
      const record = JSON.parse(line) as LogRecord;
      const text = redact(formatConsoleRecord(record, { style, color: params.color }));
      const out = ["warn", "error", "fatal"].includes(record.level) ? params.stderr : params.stdout;
      out(`${text}\n`);
    },
  };
  const streams = [
    ...(file instanceof RotatingLogFile ? [{ level: fileLevel, stream: fileSink }] : []),
    ...(consoleLevel !== "silent" ? [{ level: consoleLevel, stream: consoleSink }] : []),
  ] as DaemonSinks["streams"];
  return { streams, file, fileOk: () => file instanceof RotatingLogFile && !fileFailed };
}

/** The pino logger over the sinks; `time` is each record's moment. */
function pinoOver(pino: typeof PinoFactory, sinks: DaemonSinks, time: () => number): Logger {
  const lowest = sinks.streams
    .map((s) => s.level)
    .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  const log = pino(
    {
      level: lowest[0] ?? "silent",
      base: { pid: process.pid },
      timestamp: () => `,"time":"${new Date(time()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(sinks.streams),
  );
  if (sinks.file instanceof Error) {
    log.warn({ error: sinks.file.message }, "log file unavailable; logging to the console only");
  }
  return log;
}

function handleOf(logger: Logger, sinks: DaemonSinks): DaemonLogging {
  return {
    logger,
    get file() {
      return sinks.fileOk() ? (sinks.file as RotatingLogFile).currentPath : undefined;
    },
    close: () => {
      if (sinks.file instanceof RotatingLogFile) sinks.file.close();
    },
  };
}

/** Builds the daemon logger from the `logging` config block, on a pino the caller imported. */
export function createDaemonLogger(
  params: DaemonLoggerParams & { pino: typeof PinoFactory },
): DaemonLogging {
  const sinks = openSinks(params);
  return handleOf(pinoOver(params.pino, sinks, params.now), sinks);
}

/**
 * The daemon logger with pino imported on `flush()`: usable at once (its file opened now); lines
 * logged before pino loads are written once it has, in order, with the time they were logged.
 */
export function startDaemonLogger(params: DaemonLoggerParams): StartedDaemonLogging {
  const sinks = openSinks(params);
  let replaying: number | undefined;
  const time = () => replaying ?? params.now();
  const deferred = createDeferredLogger({
    load: () => import("pino").then(({ pino }) => pinoOver(pino, sinks, time)),
    now: params.now,
    replayingAt: (at) => {
      replaying = at;
    },
    onLoadError: (err) => params.stderr(`cannot load the logger (pino): ${String(err)}\n`),
  });
  return { ...handleOf(deferred.logger, sinks), flush: deferred.flush };
}
