// The daemon's real logger: pino writing JSON lines to the rotating log file (`logging.level`,
// default info) and to the console (`logging.consoleLevel`, default info) in the console style.
// Loaded only by `pincer gateway run` (pino costs ~60 ms to import; `pincer --help` never pays it).
import { pino } from "pino";
import type { LoggingConfig } from "../protocol/config/index.js";
import {
  type ConsoleStyle,
  createRedactor,
  DEFAULT_REDACT_PATTERNS,
  formatConsoleRecord,
  type LogRecord,
} from "./log-console.js";
import { RotatingLogFile } from "./log-file.js";
import type { GatewayLogger, LogFields } from "./logger.js";

type Level = "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent";
const ORDER: Level[] = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/** Inputs of {@link createPinoGatewayLogger}. */
export interface PinoGatewayLoggerParams {
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

/** A gateway logger that owns its file; `close` releases it. */
export interface DaemonLogger extends GatewayLogger {
  /** The file written now, if any. */
  readonly file: string | undefined;
  close(): void;
}

function openLogFile(params: PinoGatewayLoggerParams): RotatingLogFile | Error {
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

/** Builds the daemon logger from the `logging` config block. */
export function createPinoGatewayLogger(params: PinoGatewayLoggerParams): DaemonLogger {
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
  ] as Array<{ level: Exclude<Level, "silent">; stream: { write(line: string): void } }>;
  const lowest = streams.map((s) => s.level).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  const log = pino(
    {
      level: lowest[0] ?? "silent",
      base: { pid: process.pid },
      timestamp: () => `,"time":"${new Date(params.now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(streams),
  );
  if (file instanceof Error) {
    log.warn({ error: file.message }, "log file unavailable; logging to the console only");
  }
  const at = (level: "info" | "warn" | "error" | "debug") => (msg: string, fields?: LogFields) =>
    log[level](fields ?? {}, msg);
  return {
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    debug: at("debug"),
    get file() {
      return file instanceof RotatingLogFile && !fileFailed ? file.currentPath : undefined;
    },
    close: () => {
      if (file instanceof RotatingLogFile) file.close();
    },
  };
}
