// `pincer gateway uninstall`: stops and disables the systemd unit (when systemctl is available),
// removes the unit file and reloads systemd. Nothing installed is not an error.
import { rmSync } from "node:fs";
import { formatSystemctl } from "../daemon/systemctl.js";
import { type CliContext, ExitCode, printLine } from "./context.js";
import {
  defaultServiceDeps,
  resolveServiceTarget,
  runSystemctlStep,
  type ServiceDeps,
} from "./gateway-service.js";
import type { CommandInput } from "./program.js";

/** Removes the gateway service using `deps`. */
export async function uninstallWith(ctx: CliContext, deps: ServiceDeps): Promise<number> {
  const target = resolveServiceTarget(ctx);
  if (!target.installed) {
    printLine(ctx, `no gateway service installed (${target.unitPath} does not exist)`);
    return ExitCode.ok;
  }
  const disable = ["--user", "disable", "--now", `${target.name}.service`];
  const reload = ["--user", "daemon-reload"];
  if (deps.systemctl && !(await runSystemctlStep(ctx, deps.systemctl, disable))) {
    return ExitCode.failure;
  }
  rmSync(target.unitPath, { force: true });
  printLine(ctx, `removed ${target.unitPath}`);
  if (!deps.systemctl) {
    printLine(ctx, "systemctl not found; if the service was loaded, run:");
    for (const args of [disable, reload]) printLine(ctx, `  ${formatSystemctl(args)}`);
    return ExitCode.ok;
  }
  if (!(await runSystemctlStep(ctx, deps.systemctl, reload))) return ExitCode.failure;
  printLine(ctx, `service ${target.name} stopped and disabled`);
  return ExitCode.ok;
}

/** Runs `pincer gateway uninstall`. */
export async function run(ctx: CliContext, _input: CommandInput): Promise<number> {
  return uninstallWith(ctx, defaultServiceDeps(ctx));
}
