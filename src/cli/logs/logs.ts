// `pincer logs [--limit N] [--follow] [--json] [--plain] [--utc]`: the gateway's own log file, read
// locally (OpenClaw's flags). Human lines show time, level and message; --json prints the JSON lines as
// written. Both are masked like the gateway's console (logging.redactSensitive / redactPatterns).
import { existsSync } from "node:fs";
import { createRedactor, DEFAULT_REDACT_PATTERNS } from "../../gateway/logging/console-redact.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine, style } from "../command-context.js";
import { parsePositiveInt } from "../gateway-client-options.js";
import { loadForCli } from "../load.js";
import type { logsOptions } from "./commands.js";
import { followLog } from "./follow.js";
import { formatLogLine } from "./format.js";
import { type LogSource, readLastLines, resolveLogSource } from "./source.js";

/** What the command runs with besides its options: the stop signal of --follow, the clock, and the
 * directory of the dated default files (the gateway's /tmp/openclaw unless a test says otherwise). */
export interface LogsDeps {
  signal: AbortSignal;
  now: () => number;
  logDir?: string;
}

const DEFAULT_LIMIT = 200;
const DEFAULT_MAX_BYTES = 250_000;
const DEFAULT_INTERVAL_MS = 1000;

function whereItLooks(source: LogSource): string {
  return source.dated
    ? `logging.file is not set, so the gateway writes ${source.dir}/openclaw-YYYY-MM-DD.log`
    : "the gateway writes logging.file";
}

/** Runs the command with explicit dependencies (tests pass their own signal and log dir). */
export async function logsWith(
  ctx: CliContext,
  opts: Partial<OptionsOf<typeof logsOptions>>,
  deps: LogsDeps,
): Promise<number> {
  const limit = parsePositiveInt(opts.limit, "--limit") ?? DEFAULT_LIMIT;
  const maxBytes = parsePositiveInt(opts.maxBytes, "--max-bytes") ?? DEFAULT_MAX_BYTES;
  const intervalMs = parsePositiveInt(opts.interval, "--interval") ?? DEFAULT_INTERVAL_MS;
  const logging = loadForCli(ctx, { requireValid: false }).config.logging;
  const source = resolveLogSource({
    logging,
    now: deps.now(),
    ...(deps.logDir ? { dir: deps.logDir } : {}),
  });
  const redact =
    logging?.redactSensitive === "off"
      ? (text: string) => text
      : createRedactor(logging?.redactPatterns ?? DEFAULT_REDACT_PATTERNS);
  const color = ctx.color && !opts.plain;
  const show = (line: string) =>
    printLine(
      ctx,
      redact(opts.json ? line : formatLogLine(line, { utc: opts.utc === true, color })),
    );
  const notice = (text: string) => {
    if (!opts.json) ctx.stderr(`${style({ ...ctx, color }).dim(text)}\n`);
  };

  const exists = existsSync(source.path);
  if (!exists && source.fileLoggingOff && !opts.follow) {
    throw new CliError(
      `no gateway log: logging.level is "silent", so the gateway writes no log file (looked for ${source.path})`,
    );
  }
  if (!exists && !opts.follow) {
    throw new CliError(
      `no gateway log yet: ${source.path} does not exist (${whereItLooks(source)}); start the gateway with: pincer gateway`,
    );
  }
  let from: { path: string; offset: number } | undefined;
  if (exists) {
    const tail = readLastLines({ path: source.path, limit, maxBytes });
    for (const line of tail.lines) show(line);
    from = { path: source.path, offset: tail.size };
  } else {
    notice(`waiting for ${source.path} (${whereItLooks(source)})`);
  }
  if (!opts.follow) return ExitCode.ok;
  await followLog({
    source,
    ...(from ? { from } : {}),
    intervalMs,
    signal: deps.signal,
    onLine: show,
    onSwitch: (path, why) => notice(`now following ${path} (${why})`),
    now: deps.now,
  });
  return ExitCode.ok;
}

/** Runs `pincer logs`; --follow stops on SIGINT or SIGTERM. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof logsOptions>): Promise<number> {
  const stop = new AbortController();
  const unsubscribe = ctx.onSignal(["SIGINT", "SIGTERM"], () => stop.abort());
  try {
    return await logsWith(ctx, opts, { signal: stop.signal, now: Date.now });
  } finally {
    unsubscribe();
  }
}
