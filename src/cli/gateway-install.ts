// `pincer gateway install [--port N] [--force]`: writes the systemd user unit for this profile
// (ExecStart = this node + this package's CLI `gateway run`, Restart=always, the state/config env)
// and, when systemctl is available, reloads systemd and enables + starts the unit. Without
// systemctl it prints the commands to run by hand.

import { formatSystemctl } from "../daemon/systemctl.js";
import { renderGatewayUnit } from "../daemon/systemd-unit.js";
import { writeFileAtomic } from "../lib/atomic-write.js";
import { type CliContext, CliError, ExitCode, printLine } from "./context.js";
import {
  defaultServiceDeps,
  resolveServiceTarget,
  runSystemctlStep,
  type ServiceDeps,
} from "./gateway-service.js";
import type { CommandInput } from "./program.js";

/** Options of `pincer gateway install`. */
export interface GatewayInstallOptions {
  port?: string;
  force?: boolean;
}

function checkedPort(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CliError(`--port "${raw}": expected an integer from 1 to 65535`, ExitCode.usage);
  }
  return String(port);
}

/** Installs (and with systemctl, starts) the gateway service using `deps`. */
export async function installWith(
  ctx: CliContext,
  opts: GatewayInstallOptions,
  deps: ServiceDeps,
): Promise<number> {
  const port = checkedPort(opts.port);
  const target = resolveServiceTarget(ctx);
  if (target.installed && !opts.force) {
    throw new CliError(
      `${target.unitPath} already exists; use --force to overwrite it (or: pincer gateway uninstall)`,
    );
  }
  const { profile } = target.paths;
  const environment: Array<[string, string]> = [];
  if (ctx.env.OPENCLAW_STATE_DIR?.trim())
    environment.push(["OPENCLAW_STATE_DIR", target.paths.stateDir]);
  if (ctx.env.OPENCLAW_CONFIG_PATH?.trim())
    environment.push(["OPENCLAW_CONFIG_PATH", target.paths.configPath]);
  const text = renderGatewayUnit({
    description: `OpenClaw Gateway (Pincer${profile ? `, profile ${profile}` : ""})`,
    execStart: [
      deps.nodePath,
      deps.cliPath,
      ...(profile ? ["--profile", profile] : []),
      "gateway",
      "run",
      ...(port ? ["--port", port] : []),
    ],
    environment,
  });
  writeFileAtomic(target.unitPath, text, { mode: 0o644 });
  printLine(ctx, `wrote ${target.unitPath}`);
  const steps = [
    ["--user", "daemon-reload"],
    ["--user", "enable", "--now", `${target.name}.service`],
  ];
  if (!deps.systemctl) {
    printLine(ctx, "systemctl not found; to enable and start the service, run:");
    for (const args of steps) printLine(ctx, `  ${formatSystemctl(args)}`);
    return ExitCode.ok;
  }
  for (const args of steps) {
    if (!(await runSystemctlStep(ctx, deps.systemctl, args))) return ExitCode.failure;
  }
  printLine(ctx, `service ${target.name} enabled and started (systemd restarts it if it exits)`);
  printLine(ctx, "to keep it running while you are logged out: loginctl enable-linger $USER");
  return ExitCode.ok;
}

/** Runs `pincer gateway install`. */
export async function run(
  ctx: CliContext,
  { opts }: CommandInput<GatewayInstallOptions>,
): Promise<number> {
  return installWith(ctx, opts, defaultServiceDeps(ctx));
}
