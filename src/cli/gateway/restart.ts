// `pincer gateway restart`: `systemctl --user restart` when the unit is installed (a unit systemd has
// not loaded yet is loaded with daemon-reload first). Without the unit, or without a user bus, the
// command says what is missing and how to stop the gateway and start it again (exit 1).
import { findRunningGatewayPid } from "../../daemon/lock-stop.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import {
  defaultServiceDeps,
  describeStep,
  noUserBusMessage,
  resolveServiceTarget,
  runSystemctl,
  type ServiceDeps,
} from "./service.js";

/** Restarts the gateway service using `deps`. */
export async function restartWith(ctx: CliContext, deps: ServiceDeps): Promise<number> {
  const target = resolveServiceTarget(ctx);
  if (target.installed && deps.systemctl) {
    const args = ["--user", "restart", `${target.name}.service`];
    let step = await runSystemctl(deps.systemctl, args);
    if (!step.ok && step.kind === "not-loaded") {
      const reload = await runSystemctl(deps.systemctl, ["--user", "daemon-reload"]);
      step = reload.ok ? await runSystemctl(deps.systemctl, args) : reload;
    }
    if (!step.ok) {
      throw new CliError(
        step.kind === "no-bus" ? noUserBusMessage(ctx.env, step) : describeStep(step),
      );
    }
    printLine(ctx, `service ${target.name} restarted`);
    return ExitCode.ok;
  }
  const pid = findRunningGatewayPid(target.paths.stateDir);
  const how = target.installed
    ? "systemctl is not available to restart the installed unit"
    : "no service is installed (pincer gateway install sets one up)";
  throw new CliError(
    pid
      ? `the gateway (pid ${pid}) is not supervised: ${how}.\nstop it with: pincer gateway stop\nthen start it again with: pincer gateway run`
      : `no gateway is running for ${target.paths.stateDir}, and ${how}.\nstart one with: pincer gateway run`,
  );
}

/** Runs `pincer gateway restart`. */
export async function run(ctx: CliContext): Promise<number> {
  return restartWith(ctx, defaultServiceDeps(ctx));
}
