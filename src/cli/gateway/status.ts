// `pincer gateway status [--json]`: whether the unit is installed (and systemd's view of it) and
// whether a gateway process holds the state dir. Exit 0 when a gateway runs, 1 when none does.
import { findRunningGatewayPid } from "../../daemon/lock-stop.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, ExitCode, printJson, printLine } from "../command-context.js";
import type { statusOptions } from "./commands.js";
import {
  classifySystemctlFailure,
  defaultServiceDeps,
  resolveServiceTarget,
  type ServiceDeps,
} from "./service.js";

/** Reports the service and process state using `deps`. */
export async function statusWith(
  ctx: CliContext,
  opts: Partial<OptionsOf<typeof statusOptions>>,
  deps: ServiceDeps,
): Promise<number> {
  const target = resolveServiceTarget(ctx);
  let systemd: string | undefined;
  if (target.installed && deps.systemctl) {
    const result = await deps.systemctl(["--user", "is-active", `${target.name}.service`]);
    const detail = (result.stderr || result.stdout).trim();
    systemd =
      result.code !== 0 && classifySystemctlFailure(detail) === "no-bus"
        ? "unreachable (no user bus)"
        : result.stdout.trim() || (result.code === 0 ? "active" : "unknown");
  }
  const pid = findRunningGatewayPid(target.paths.stateDir);
  const running = pid !== undefined || systemd === "active";
  if (opts.json) {
    printJson(ctx, {
      service: {
        name: target.name,
        unitPath: target.unitPath,
        installed: target.installed,
        ...(systemd ? { systemd } : {}),
      },
      process: { running: pid !== undefined, ...(pid !== undefined ? { pid } : {}) },
      stateDir: target.paths.stateDir,
    });
  } else {
    printLine(
      ctx,
      `service: ${target.installed ? `installed (${target.unitPath})` : "not installed"}${systemd ? `, systemd: ${systemd}` : ""}`,
    );
    printLine(
      ctx,
      `gateway: ${pid !== undefined ? `running (pid ${pid})` : "not running"} for ${target.paths.stateDir}`,
    );
  }
  return running ? ExitCode.ok : ExitCode.failure;
}

/** Runs `pincer gateway status`. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof statusOptions>,
): Promise<number> {
  return statusWith(ctx, opts, defaultServiceDeps(ctx));
}
