// `pincer gateway [run] [--port N] [--bind loopback|lan|tailnet|custom] [--host H] [--auth none|token|password]
// [--token T] [--password P]`: the gateway in the foreground. Refuses to bind beyond loopback without
// auth, takes the state-dir lock, prints the URL (and the WebChat URL) when ready, and on SIGTERM/SIGINT
// shuts down gracefully (shutdown event, runs drained up to 10 s, stores flushed, lock released) and
// exits 0. `--json`: stdout and stderr carry JSON lines only (log records, the `gateway listening`
// ready record, and a `fatal` record for a start that fails), nothing else.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { formatConfigIssues } from "../../config/index.js";
import { installProcessGuards } from "../../daemon/process-guards.js";
import { defaultUiDir } from "../../gateway/http/ui-files.js";
import { webchatUrl } from "../../gateway/http/webchat-url.js";
import type { GatewayAuthResolution, GatewayHandle, SharedAuth } from "../../gateway/index.js";
import { consoleRecordLine, jsonLinesSink } from "../../gateway/logging/json-console.js";
import { applyMemoryTuning } from "../../gateway/memory-tuning.js";
import { findTailnetAddress } from "../../gateway/net/tailnet.js";
import { StateDirLockedError } from "../../sessions/index.js";
import type { InputOf, OptionsOf } from "../command.js";
import { asBlock, type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import { loadForCli } from "../load.js";
import type { runOptions } from "./commands.js";

/** The options of `pincer gateway run`, as parsed. */
type GatewayRunOptions = Partial<OptionsOf<typeof runOptions>>;

const BINDS = ["loopback", "lan", "tailnet", "custom"] as const;
const AUTH_MODES = ["none", "token", "password"] as const;

/** Where to listen for a bind mode (`tailnet`: this host's Tailscale address). */
export function resolveListenHost(params: {
  bind: string;
  customHost: string | undefined;
  findTailnet?: () => string | undefined;
}): string {
  const { bind, customHost } = params;
  if (bind === "loopback") return "127.0.0.1";
  if (bind === "lan") return "0.0.0.0";
  if (bind === "tailnet") {
    const address = (params.findTailnet ?? findTailnetAddress)();
    if (!address)
      throw new CliError(
        "--bind tailnet: no Tailscale address (100.64.0.0/10) on this host; is `tailscale up` done?",
      );
    return address;
  }
  if (!customHost)
    throw new CliError("--bind custom needs --host (or gateway.customBindHost)", ExitCode.usage);
  return customHost;
}

function parsePort(raw: string | undefined, fallback: number | undefined): number {
  if (raw === undefined) return fallback ?? 18789;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--port "${raw}": expected an integer from 0 to 65535`, ExitCode.usage);
  }
  return port;
}

/** The context of `--json`: both streams JSON lines only, no colour. */
function jsonContext(ctx: CliContext): CliContext {
  const sink = (write: (text: string) => void, level: string) =>
    jsonLinesSink({ write, level, now: Date.now, pid: ctx.pid });
  return {
    ...ctx,
    stdout: sink(ctx.stdout, "info"),
    stderr: sink(ctx.stderr, "error"),
    color: false,
  };
}

/** Runs the gateway until SIGTERM/SIGINT (`--json`: a failed start is a `fatal` JSON record). */
export async function run(ctx: CliContext, input: InputOf<typeof runOptions>): Promise<number> {
  // First, before start-up grows the young generation: the daemon's heap follows its live data
  // instead of V8's default headroom; V8's defaults are back once it stops.
  const tuning = applyMemoryTuning({ execArgv: ctx.execArgv });
  try {
    return await runForeground(ctx, input.opts);
  } finally {
    tuning.dispose();
  }
}

async function runForeground(ctx: CliContext, opts: GatewayRunOptions): Promise<number> {
  if (!opts.json) return runGateway(ctx, opts);
  const json = jsonContext(ctx);
  try {
    return await runGateway(json, opts);
  } catch (err) {
    // Under --json even a bug is one JSON record (with its stack), never a bare trace.
    const known = err instanceof CliError;
    const exitCode = known ? err.exitCode : ExitCode.failure;
    const stack = !known && err instanceof Error && err.stack ? { stack: err.stack } : {};
    json.stderr(
      consoleRecordLine({
        level: "fatal",
        msg: err instanceof Error ? err.message : String(err),
        fields: { exitCode, ...stack },
        now: Date.now,
        pid: ctx.pid,
      }),
    );
    return exitCode;
  }
}

/** The ready announcement: the human banner, or under `--json` one `gateway listening` record. */
function announceReady(
  ctx: CliContext,
  params: {
    json: boolean;
    gw: GatewayHandle;
    webchat: string | undefined;
    tokenFile: { path: string; created: boolean } | undefined;
    logFile: string | undefined;
  },
): void {
  const { gw, webchat, tokenFile, logFile } = params;
  if (params.json) {
    const fields = {
      url: gw.url,
      ...(webchat ? { webchatUrl: webchat } : {}),
      authMode: gw.core.authMode,
      ...(tokenFile ? { tokenFile: tokenFile.path, tokenCreated: tokenFile.created } : {}),
      ...(logFile ? { logFile } : {}),
    };
    const line = { level: "info", msg: "gateway listening", fields, now: Date.now };
    printLine(ctx, consoleRecordLine({ ...line, pid: ctx.pid }));
    return;
  }
  const tokenNote = tokenFile
    ? `; token ${tokenFile.created ? "created in" : "from"} ${tokenFile.path}`
    : "";
  printLine(ctx, `Pincer gateway listening on ${gw.url} (auth ${gw.core.authMode}${tokenNote})`);
  if (webchat) printLine(ctx, `WebChat: ${webchat}`);
  if (logFile) printLine(ctx, `log file: ${logFile}`);
}

/**
 * SIGTERM/SIGINT handlers, installed before the gateway starts: a signal that comes while it starts
 * or right after its ready line is a clean stop, never node's default kill.
 */
function listenForStop(ctx: CliContext): { signal: Promise<NodeJS.Signals>; dispose: () => void } {
  let dispose = () => {};
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    dispose = ctx.onSignal(["SIGINT", "SIGTERM"], resolve);
  });
  return { signal, dispose };
}

/** Runs the gateway until a stop signal; a chat `/restart` closes it and starts it again in this
 *  process, on the config as it is then (the stop handlers stay installed throughout). */
async function runGateway(ctx: CliContext, opts: GatewayRunOptions): Promise<number> {
  const stop = listenForStop(ctx);
  try {
    for (;;) {
      const round = await runGatewayOnce(ctx, opts, stop.signal);
      if (!round.restart) return round.exitCode;
    }
  } finally {
    stop.dispose();
  }
}

async function runGatewayOnce(
  ctx: CliContext,
  opts: GatewayRunOptions,
  stopSignal: Promise<NodeJS.Signals>,
): Promise<{ exitCode: number; restart: boolean }> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const cfg = loaded.config;
  const bind = opts.bind ?? cfg.gateway?.bind ?? "loopback";
  if (!(BINDS as readonly string[]).includes(bind)) {
    throw new CliError(`--bind "${bind}": expected ${BINDS.join(", ")}`, ExitCode.usage);
  }
  if (opts.auth !== undefined && !(AUTH_MODES as readonly string[]).includes(opts.auth)) {
    throw new CliError(`--auth "${opts.auth}": expected ${AUTH_MODES.join(", ")}`, ExitCode.usage);
  }
  const listenHost = resolveListenHost({
    bind,
    customHost: opts.host ?? cfg.gateway?.customBindHost,
  });
  const port = parsePort(opts.port, cfg.gateway?.port);
  const {
    startGateway,
    GatewayAuthConfigError,
    GatewayConfigError,
    resolveGatewayAuth,
    assertAuthForHost,
  } = await import("../../gateway/index.js");
  // Flags only: env, config and the state dir's generated token (auth on by default) are resolved by
  // the gateway itself, the same way at start and on every live reload.
  const overrides: Partial<SharedAuth> = {
    ...(opts.auth ? { mode: opts.auth as SharedAuth["mode"] } : {}),
    ...(opts.token ? { token: opts.token } : {}),
    ...(opts.password ? { password: opts.password } : {}),
  };
  let preflight: GatewayAuthResolution;
  try {
    // Fail fast (before the logger opens its file) with what startGateway would refuse.
    preflight = resolveGatewayAuth({
      cfg,
      env: loaded.env,
      overrides,
      stateDir: loaded.paths.stateDir,
    });
    assertAuthForHost(preflight.auth, listenHost);
  } catch (err) {
    if (err instanceof GatewayAuthConfigError) throw new CliError(err.message, ExitCode.usage);
    throw err;
  }
  const { startDaemonLogger } = await import("../../gateway/logging/daemon-logger.js");
  // pino loads once the gateway listens (flush); what is logged before is written then.
  const logging = startDaemonLogger({
    ...(cfg.logging ? { logging: cfg.logging } : {}),
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    isTty: ctx.isTty,
    color: ctx.color,
    ...(opts.json ? { consoleStyle: "json" as const } : {}),
    now: Date.now,
  });
  // Unhandled rejections / uncaught exceptions are logged, not fatal (src/daemon/process-guards.ts).
  const releaseProcessGuards = installProcessGuards({
    log: logging.logger,
    fallback: (line) => ctx.stderr(`${line}\n`),
  });
  let requestRestart: (reason: string) => void = () => {};
  const restartRequested = new Promise<string>((resolve) => {
    requestRestart = resolve;
  });
  let gw: GatewayHandle;
  try {
    gw = await startGateway({
      loaded,
      env: ctx.env,
      host: listenHost,
      port,
      auth: overrides,
      logger: logging.logger,
      ...(ctx.profile ? { profile: ctx.profile } : {}),
      onRestartRequest: (reason) => requestRestart(reason),
    });
  } catch (err) {
    releaseProcessGuards();
    await logging.flush();
    logging.close();
    if (err instanceof GatewayAuthConfigError) throw new CliError(err.message, ExitCode.usage);
    // Refused config (model refs are checked at start only): its issues, never the whole value.
    if (err instanceof GatewayConfigError) {
      ctx.stderr(asBlock(formatConfigIssues(err.loaded, { color: ctx.color })));
      throw new CliError(`${err.message}; fix it or run: pincer config validate`);
    }
    if (err instanceof StateDirLockedError)
      throw new CliError(`${err.message}\nis another gateway running?`);
    if ((err as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new CliError(`port ${port} on ${listenHost} is already in use`);
    throw err;
  }
  // The preflight resolution created the token file if it was missing; the gateway then read it.
  const tokenFile = gw.tokenFile && (preflight.tokenFile ?? gw.tokenFile);
  const uiDir = defaultUiDir();
  const webchat = webchatUrl({
    host: gw.host,
    port: gw.port,
    // Read defensively: only an explicit `false` turns the UI off.
    enabled: cfg.gateway?.controlUi?.enabled,
    uiAvailable: uiDir !== undefined && existsSync(join(uiDir, "index.html")),
    basePath: cfg.gateway?.controlUi?.basePath,
  });
  announceReady(ctx, { json: opts.json === true, gw, webchat, tokenFile, logFile: logging.file });
  void logging.flush();
  const ending = await Promise.race([
    stopSignal.then((signal) => ({ restart: false, why: `received ${signal}` })),
    restartRequested.then((reason) => ({ restart: true, why: `restart requested (${reason})` })),
  ]);
  logging.logger.info(`${ending.why}: ${ending.restart ? "restarting" : "shutting down"}`);
  try {
    await gw.close(ending.why);
  } catch (err) {
    ctx.stderr(asBlock(`shutdown failed: ${err instanceof Error ? err.message : String(err)}`));
    return { exitCode: ExitCode.failure, restart: false };
  } finally {
    releaseProcessGuards();
    await logging.flush();
    logging.close();
  }
  return { exitCode: ExitCode.ok, restart: ending.restart };
}
