// `pincer gateway stop`: `systemctl --user stop` when the unit is installed; otherwise SIGTERM to
// the gateway pid recorded in `<stateDir>/gateway.lock`, waiting for it to exit. Nothing running
// is an error (exit 1) with a clear message.
import { stopGatewayByLock } from "../daemon/lock-stop.js";
import { type CliContext, CliError, ExitCode, printLine } from "./context.js";
import {
  defaultServiceDeps,
  resolveServiceTarget,
  runSystemctlStep,
  type ServiceDeps,
} from "./gateway-service.js";
import type { CommandInput } from "./program.js";

/** Options of `pincer gateway stop`. */
export interface GatewayStopOptions {
  timeout?: string;
}

/** Stops the gateway using `deps`. */
export async function stopWith(
  ctx: CliContext,
  opts: GatewayStopOptions,
  deps: ServiceDeps,
): Promise<number> {
  const target = resolveServiceTarget(ctx);
  if (target.installed && deps.systemctl) {
    const ok = await runSystemctlStep(ctx, deps.systemctl, [
      "--user",
      "stop",
      `${target.name}.service`,
    ]);
    if (ok) printLine(ctx, `service ${target.name} stopped`);
    return ok ? ExitCode.ok : ExitCode.failure;
  }
  const timeoutMs = opts.timeout === undefined ? undefined : Number(opts.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new CliError(`--timeout "${opts.timeout}": expected milliseconds > 0`, ExitCode.usage);
  }
  const result = await stopGatewayByLock({
    stateDir: target.paths.stateDir,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  switch (result.status) {
    case "stopped":
      printLine(ctx, `gateway (pid ${result.pid}) stopped`);
      return ExitCode.ok;
    case "not-running":
      throw new CliError(
        `no gateway is running for ${target.paths.stateDir} (no live lock at ${result.lockPath})`,
      );
    case "not-a-gateway":
      throw new CliError(
        `the state dir is held by pid ${result.pid} (${result.command}), not a gateway; not stopping it`,
      );
    case "timeout":
      throw new CliError(
        `gateway (pid ${result.pid}) did not exit within ${result.waitedMs} ms after SIGTERM`,
      );
    case "signal-failed":
      throw new CliError(`could not signal gateway pid ${result.pid}: ${result.error}`);
  }
}

/** Runs `pincer gateway stop`. */
export async function run(
  ctx: CliContext,
  { opts }: CommandInput<GatewayStopOptions>,
): Promise<number> {
  return stopWith(ctx, opts, defaultServiceDeps(ctx));
}
