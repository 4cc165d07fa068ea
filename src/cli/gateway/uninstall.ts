// `pincer gateway uninstall`: stops and disables the systemd unit, removes the unit file (and its
// `default.target.wants` link) and reloads systemd. Idempotent: nothing installed, a unit systemd
// never loaded, or no user bus (the files are still removed, with a note) all end in "not installed".
import { rmSync } from "node:fs";
import { findRunningGatewayPid } from "../../daemon/lock-stop.js";
import { formatSystemctl } from "../../daemon/systemctl.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import {
  defaultServiceDeps,
  describeStep,
  resolveServiceTarget,
  runSystemctl,
  type ServiceDeps,
  wantsLinkPath,
} from "./service.js";

/** Removes the gateway service using `deps`. */
export async function uninstallWith(ctx: CliContext, deps: ServiceDeps): Promise<number> {
  const target = resolveServiceTarget(ctx);
  const wantsLink = wantsLinkPath(target.unitPath);
  if (!target.installed) {
    rmSync(wantsLink, { force: true });
    printLine(ctx, `no gateway service installed (${target.unitPath} does not exist)`);
    return ExitCode.ok;
  }
  const disable = ["--user", "disable", "--now", `${target.name}.service`];
  const reload = ["--user", "daemon-reload"];
  let reachable = deps.systemctl !== undefined;
  if (deps.systemctl) {
    const step = await runSystemctl(deps.systemctl, disable);
    if (!step.ok && step.kind === "failed") {
      throw new CliError(`${describeStep(step)}\nnothing was removed`);
    }
    if (!step.ok && step.kind === "not-loaded") {
      printLine(ctx, `service ${target.name} was not loaded in systemd`);
    }
    if (!step.ok && step.kind === "no-bus") {
      reachable = false;
      ctx.stderr(
        `note: no systemd user bus (${step.detail}); removing the unit files without stopping the service\n`,
      );
    }
  }
  rmSync(target.unitPath, { force: true });
  rmSync(wantsLink, { force: true });
  printLine(ctx, `removed ${target.unitPath}`);
  if (deps.systemctl && reachable) {
    const step = await runSystemctl(deps.systemctl, reload);
    if (!step.ok) throw new CliError(describeStep(step));
    printLine(ctx, `service ${target.name} stopped and disabled`);
    return ExitCode.ok;
  }
  if (!deps.systemctl) printLine(ctx, "systemctl not found; nothing else to stop or disable");
  const pid = findRunningGatewayPid(target.paths.stateDir);
  if (pid !== undefined) {
    throw new CliError(
      `the gateway (pid ${pid}) is still running: stop it with pincer gateway stop (or, from a login session: ${formatSystemctl(disable)})`,
    );
  }
  return ExitCode.ok;
}

/** Runs `pincer gateway uninstall`. */
export async function run(ctx: CliContext): Promise<number> {
  return uninstallWith(ctx, defaultServiceDeps(ctx));
}
