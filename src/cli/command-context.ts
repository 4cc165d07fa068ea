// What every command receives: where to write, the environment, the process facts it may need, and
// the global flags. Commands never reach for the global process object (main.ts fills the io from it),
// so they run in-process under test with fakes.
import type { Readable, Writable } from "node:stream";

/** Exit codes: 0 ok, 1 failure, 2 usage error. */
export const ExitCode = { ok: 0, failure: 1, usage: 2 } as const;

/** Streams and environment a command runs with. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** Reads all of standard input (only `--stdin` commands call it). */
  readStdin: () => Promise<string>;
  /** Whether stdout is a terminal (for colour). */
  isTty: boolean;
  /** Set when both stdin and stdout are a terminal: the streams interactive prompts (onboard) use. */
  terminal?: { input: Readable; output: Writable };
  /** This process's id (log records, lock notices). */
  pid: number;
  /** The OS platform (`linux`, `darwin`, `win32`, …): which opener, which checks apply. */
  platform: NodeJS.Platform;
  /** The node binary running the CLI (the service unit runs the gateway with it). */
  execPath: string;
  /** The CLI script as invoked (argv[1]), if any: a fallback when the package root is unknown. */
  scriptPath: string | undefined;
  /** The node flags this process was started with (a V8 setting given there wins over the daemon's). */
  execArgv: readonly string[];
  /**
   * Calls `handler` on the first of `signals` (Ctrl-C, a stop), then stops listening, so a second
   * signal gets the default (the process ends). Returns the unsubscribe (idempotent).
   */
  onSignal: (
    signals: readonly NodeJS.Signals[],
    handler: (signal: NodeJS.Signals) => void,
  ) => () => void;
}

/** The global flags plus the io; passed to every command's `run`. */
export interface CliContext extends CliIo {
  profile?: string;
  color: boolean;
}

/** Thrown by commands for an expected failure the user must see; the program prints it and exits 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** Writes a line of text to stdout. */
export function printLine(ctx: CliContext, text = ""): void {
  ctx.stdout(`${text}\n`);
}

/** Ends `text` with exactly one newline, for multi-line blocks built elsewhere. */
export function asBlock(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** Writes a value as pretty JSON to stdout (the `--json` output of every data command). */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** Minimal ANSI styling that turns itself off for `--no-color`, `NO_COLOR` or a non-terminal. */
export function style(
  ctx: CliContext,
): Record<"bold" | "dim" | "red" | "yellow" | "green" | "cyan", (s: string) => string> {
  const wrap = (open: number, close: number) => (s: string) =>
    ctx.color ? `\u001b[${open}m${s}\u001b[${close}m` : s;
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    yellow: wrap(33, 39),
    green: wrap(32, 39),
    cyan: wrap(36, 39),
  };
}

/** Shows a path with the home directory abbreviated to `~`, as users wrote it in their config. */
export function displayPath(path: string, home: string): string {
  if (home && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}
