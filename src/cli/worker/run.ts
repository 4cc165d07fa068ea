// `pincer worker [--concurrency N]`: reads openclaw.json (OPENCLAW_CONFIG_PATH or the profile's),
// connects to cluster.queue and runs turns until SIGINT/SIGTERM (running turns get 30 s to finish,
// then are handed back to the queue). Log lines go to stderr as `worker: <level> <message> {fields}`.
import { createEntryLogger, type LogEntry } from "../../lib/logger.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { workerOptions } from "./commands.js";

function formatEntry(entry: LogEntry): string {
  const fields = Object.keys(entry.fields).length ? ` ${JSON.stringify(entry.fields)}` : "";
  return `worker: ${entry.level} ${entry.msg}${fields}\n`;
}

function concurrencyOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`--concurrency: expected a whole number >= 1, got ${text}`, ExitCode.usage);
  return n;
}

/** Runs the worker; exit 0 on a stop signal, 2 on bad flags, 1 when it cannot start. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof workerOptions>,
): Promise<number> {
  const concurrency = concurrencyOf(opts.concurrency);
  const load = { env: ctx.env, ...(ctx.profile ? { profile: ctx.profile } : {}) };
  const loaded = loadForCli(ctx, { requireValid: true });
  if (!loaded.config.cluster?.queue)
    throw new CliError(
      `no cluster.queue in ${loaded.path}: a worker needs the gateway's run queue (see README "Scaling out")`,
    );
  const verbose = ctx.env.PINCER_WORKER_DEBUG === "1";
  const logger = createEntryLogger((entry) => {
    if (entry.level !== "debug" || verbose) ctx.stderr(formatEntry(entry));
  });
  const { startWorker } = await import("../../cluster/worker/start-worker.js");
  const stop = new AbortController();
  const dispose = ctx.onSignal(["SIGINT", "SIGTERM"], () => stop.abort());
  try {
    await startWorker({
      loaded,
      load,
      ...(concurrency !== undefined ? { concurrency } : {}),
      logger,
      signal: stop.signal,
    });
  } catch (err) {
    throw new CliError(`worker: ${(err as Error).message ?? String(err)}`);
  } finally {
    dispose();
  }
  printLine(ctx, "worker: stopped");
  return ExitCode.ok;
}
