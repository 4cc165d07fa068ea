// `pincer gateway stop`: `systemctl --user stop` when the unit is installed and loaded; then, or
// otherwise (no unit, a unit systemd has not loaded, or no user bus), SIGTERM to a gateway pid still
// recorded in `<stateDir>/gateway.lock` (one started outside the service), waiting for it to exit. Stopping is idempotent: nothing running is
// exit 0 with a note; only a stop that was needed and failed is an error.
import { findRunningGatewayPid, stopGatewayByLock } from "../../daemon/lock-stop.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import type { stopOptions } from "./commands.js";
import {
  defaultServiceDeps,
  describeStep,
  resolveServiceTarget,
  runSystemctl,
  type ServiceDeps,
} from "./service.js";

/** Stops the gateway using `deps`. */
export async function stopWith(
  ctx: CliContext,
  opts: Partial<OptionsOf<typeof stopOptions>>,
  deps: ServiceDeps,
): Promise<number> {
  const target = resolveServiceTarget(ctx);
  const unit = `${target.name}.service`;
  const timeoutMs = opts.timeout === undefined ? undefined : Number(opts.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new CliError(`--timeout "${opts.timeout}": expected milliseconds > 0`, ExitCode.usage);
  }
  if (target.installed && deps.systemctl) {
    const step = await runSystemctl(deps.systemctl, ["--user", "stop", unit]);
    if (step.ok) {
      printLine(ctx, `service ${target.name} stopped`);
      // systemd waited for its own gateway to exit; one still holding the state dir was started
      // outside the service (`pincer gateway` in a terminal) and is stopped by its pid too.
      const outside = findRunningGatewayPid(target.paths.stateDir);
      if (outside === undefined) return ExitCode.ok;
      ctx.stderr(
        `note: a gateway outside the service (pid ${outside}) still holds ${target.paths.stateDir}; stopping it by its pid\n`,
      );
    } else if (step.kind === "failed") throw new CliError(describeStep(step));
    else {
      // Not loaded, or systemd unreachable: an unsupervised gateway may still hold the state dir.
      ctx.stderr(
        step.kind === "not-loaded"
          ? `note: service ${target.name} is not loaded in systemd (nothing to stop there)\n`
          : `note: no systemd user bus (${step.detail}); stopping the gateway by its pid instead (if systemd supervises it, stop it from a login session: systemctl --user stop ${unit})\n`,
      );
    }
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
      printLine(
        ctx,
        `no gateway is running for ${target.paths.stateDir} (no live lock at ${result.lockPath}); nothing to stop`,
      );
      return ExitCode.ok;
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
export async function run(ctx: CliContext, { opts }: InputOf<typeof stopOptions>): Promise<number> {
  return stopWith(ctx, opts, defaultServiceDeps(ctx));
}
