// Process-wide containment for `pincer gateway run`: a promise rejection nobody handled or an exception
// thrown from a callback nobody wrapped, anywhere in the gateway process, is logged with its context
// (kind, name, message, code, stack) and the gateway keeps serving. Node's default would end the
// process, and with it every other account, connection and run, for one faulty component; stored
// state is crash-safe by design (atomic writes, journals), so carrying on is the safer choice.
//
// What still exits: an uncaught `ERR_INTERNAL_ASSERTION` (Node's own state is corrupt) exits with
// code 70 after logging, so the service manager restarts a clean process. Heap exhaustion and native
// aborts never reach JavaScript handlers and end the process as before. Unhandled rejections never
// exit. A flood of reports (a callback that throws in a loop) is logged in full up to a cap per
// minute, then counted, so the guard cannot fill the disk or spin on its own log writes.
// Installed only by `pincer gateway run`; nothing happens on import.

import type { Logger } from "../lib/logger.js";

/** The part of `process` the guards use. */
export interface GuardedProcess {
  on(event: "unhandledRejection", listener: (reason: unknown) => void): unknown;
  on(event: "uncaughtException", listener: (error: Error, origin: string) => void): unknown;
  off(event: "unhandledRejection", listener: (reason: unknown) => void): unknown;
  off(event: "uncaughtException", listener: (error: Error, origin: string) => void): unknown;
}

/** Inputs for {@link installProcessGuards}. */
export interface ProcessGuardParams {
  log: Pick<Logger, "error">;
  /** Default: the real `process`. */
  target?: GuardedProcess;
  /** Ends the process for the fatal kinds (default `process.exit`). */
  exit?: (code: number) => void;
  /** Last resort when the logger itself throws (default: a line on stderr). */
  fallback?: (line: string) => void;
  now?: () => number;
  /** Full reports per window; later ones in the window are only counted. Default 20 per minute. */
  maxReportsPerWindow?: number;
  windowMs?: number;
}

/** Exit code of a fatal uncaught exception (EX_SOFTWARE). */
export const FATAL_EXIT_CODE = 70;

/** Error codes after which the process is not trusted to go on. */
const FATAL_CODES = new Set(["ERR_INTERNAL_ASSERTION"]);

/** True for the uncaught exceptions that still end the process (see the header). */
export function isFatalUncaught(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && FATAL_CODES.has(code);
}

/** Log fields describing a thrown value or rejection reason. */
export function describeThrown(value: unknown): Record<string, unknown> {
  if (value instanceof Error) {
    const fields: Record<string, unknown> = { name: value.name, error: value.message };
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) fields.code = code;
    if (value.stack) fields.stack = value.stack;
    if (value.cause !== undefined) fields.cause = String(value.cause);
    return fields;
  }
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return { error: text.slice(0, 2_000), valueType: value === null ? "null" : typeof value };
}

/** Installs the handlers; returns the function that removes them again. */
export function installProcessGuards(params: ProcessGuardParams): () => void {
  const target = params.target ?? process;
  const exit = params.exit ?? ((code: number) => process.exit(code));
  const fallback =
    params.fallback ?? ((line: string) => void process.stderr.write(`${line}\n`, () => {}));
  const now = params.now ?? Date.now;
  const maxReports = params.maxReportsPerWindow ?? 20;
  const windowMs = params.windowMs ?? 60_000;
  let windowStart = now();
  let reported = 0;
  let suppressed = 0;
  let reporting = false;

  const write = (message: string, fields: Record<string, unknown>) => {
    try {
      params.log.error(fields, message);
    } catch (err) {
      try {
        fallback(`${message}: ${String(fields.error)} (logger failed: ${String(err)})`);
      } catch {
        // stderr is gone too: nothing left to tell.
      }
    }
  };

  const report = (message: string, fields: Record<string, unknown>, force = false) => {
    // A report raised while reporting (the logger's own stream failing) is not reported again.
    if (reporting) return;
    reporting = true;
    try {
      if (now() - windowStart >= windowMs) {
        if (suppressed > 0)
          write("process guard: reports suppressed", { suppressed, windowMs: windowMs });
        windowStart = now();
        reported = 0;
        suppressed = 0;
      }
      if (reported >= maxReports && !force) {
        suppressed += 1;
        return;
      }
      reported += 1;
      write(message, fields);
    } finally {
      reporting = false;
    }
  };

  const onRejection = (reason: unknown) => {
    report("unhandled promise rejection (contained; the gateway keeps running)", {
      kind: "unhandledRejection",
      ...describeThrown(reason),
    });
  };
  const onException = (error: Error, origin: string) => {
    const fatal = isFatalUncaught(error);
    const message = fatal
      ? "fatal uncaught exception: exiting"
      : "uncaught exception (contained; the gateway keeps running)";
    report(message, { kind: "uncaughtException", origin, ...describeThrown(error) }, fatal);
    if (fatal) exit(FATAL_EXIT_CODE);
  };

  target.on("unhandledRejection", onRejection);
  target.on("uncaughtException", onException);
  return () => {
    target.off("unhandledRejection", onRejection);
    target.off("uncaughtException", onException);
  };
}
