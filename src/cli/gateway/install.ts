// `pincer gateway install [--port N] [--force]`: writes the systemd user unit for this profile
// (ExecStart = this node + this package's CLI `gateway run`, Restart=always, the state/config env),
// reloads systemd and enables + starts the unit. Without systemctl, or without a reachable user
// manager (no user bus), it fails before writing anything and says what to do instead; a step that
// fails after the write is rolled back, so a failed install leaves nothing behind.

import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { findRunningGatewayPid } from "../../daemon/lock-stop.js";
import type { SystemctlRunner } from "../../daemon/systemctl.js";
import { renderGatewayUnit } from "../../daemon/systemd-unit.js";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import type { InputOf, OptionsOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import type { installOptions } from "./commands.js";
import {
  defaultServiceDeps,
  describeStep,
  noUserBusMessage,
  resolveServiceTarget,
  runSystemctl,
  type ServiceDeps,
  type ServiceTarget,
  wantsLinkPath,
} from "./service.js";

function checkedPort(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CliError(`--port "${raw}": expected an integer from 1 to 65535`, ExitCode.usage);
  }
  return String(port);
}

/** Undoes a failed install: disable, the previous unit text back (or none), daemon-reload. */
async function rollBack(params: {
  systemctl: SystemctlRunner;
  target: ServiceTarget;
  previous: string | undefined;
  /** The first folder this install created for the unit, if any (removed again). */
  createdDir: string | undefined;
}): Promise<string> {
  const { systemctl, target, previous } = params;
  await runSystemctl(systemctl, ["--user", "disable", `${target.name}.service`]);
  if (previous === undefined) {
    rmSync(target.unitPath, { force: true });
    rmSync(wantsLinkPath(target.unitPath), { force: true });
    if (params.createdDir) rmSync(params.createdDir, { recursive: true, force: true });
  } else {
    writeFileAtomic(target.unitPath, previous, { mode: 0o644 });
  }
  await runSystemctl(systemctl, ["--user", "daemon-reload"]);
  return previous === undefined
    ? `nothing was installed (${target.unitPath} removed)`
    : `the previous ${target.unitPath} was put back`;
}

/**
 * Installs and starts the gateway service using `deps`. Refuses before writing anything when
 * systemctl is missing or cannot reach the user manager; a later failed step is rolled back.
 */
export async function installWith(
  ctx: CliContext,
  opts: Partial<OptionsOf<typeof installOptions>>,
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
  const execStart = [
    deps.nodePath,
    deps.cliPath,
    ...(profile ? ["--profile", profile] : []),
    "gateway",
    "run",
    ...(port ? ["--port", port] : []),
  ];
  if (!deps.systemctl) {
    throw new CliError(
      [
        "systemctl not found: `pincer gateway install` sets up a systemd user service, and this machine has no systemd (macOS and most containers have none); nothing was installed.",
        `run the gateway in the foreground (pincer gateway) or under your own supervisor: ${execStart.join(" ")}`,
      ].join("\n"),
    );
  }
  // The user manager must answer before anything is written.
  const probe = await runSystemctl(deps.systemctl, ["--user", "show-environment"]);
  if (!probe.ok) {
    throw new CliError(
      probe.kind === "no-bus"
        ? noUserBusMessage(ctx.env, probe)
        : `${describeStep(probe)}\nnothing was installed.`,
    );
  }
  // A gateway already holding the state dir (started in a terminal) would make the service's own
  // gateway fail on the lock and systemd restart it forever: refuse before anything is written.
  const running = target.installed ? undefined : findRunningGatewayPid(target.paths.stateDir);
  if (running !== undefined) {
    throw new CliError(
      `a gateway (pid ${running}) is already running for ${target.paths.stateDir} outside systemd; nothing was installed.\nstop it first (pincer gateway stop), then run pincer gateway install again`,
    );
  }
  const environment: Array<[string, string]> = [];
  if (ctx.env.OPENCLAW_STATE_DIR?.trim())
    environment.push(["OPENCLAW_STATE_DIR", target.paths.stateDir]);
  if (ctx.env.OPENCLAW_CONFIG_PATH?.trim())
    environment.push(["OPENCLAW_CONFIG_PATH", target.paths.configPath]);
  const text = renderGatewayUnit({
    description: `OpenClaw Gateway (Pincer${profile ? `, profile ${profile}` : ""})`,
    execStart,
    environment,
  });
  const previous = target.installed ? readFileSync(target.unitPath, "utf8") : undefined;
  const createdDir = mkdirSync(dirname(target.unitPath), { recursive: true });
  writeFileAtomic(target.unitPath, text, { mode: 0o644 });
  for (const args of [
    ["--user", "daemon-reload"],
    ["--user", "enable", "--now", `${target.name}.service`],
  ]) {
    const step = await runSystemctl(deps.systemctl, args);
    if (step.ok) continue;
    const undone = await rollBack({ systemctl: deps.systemctl, target, previous, createdDir });
    const cause = step.kind === "no-bus" ? noUserBusMessage(ctx.env, step) : describeStep(step);
    throw new CliError(`${cause}\n${undone}`);
  }
  printLine(ctx, `wrote ${target.unitPath}`);
  printLine(ctx, `service ${target.name} enabled and started (systemd restarts it if it exits)`);
  printLine(ctx, "to keep it running while you are logged out: loginctl enable-linger $USER");
  return ExitCode.ok;
}

/** Runs `pincer gateway install`. */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof installOptions>,
): Promise<number> {
  return installWith(ctx, opts, defaultServiceDeps(ctx));
}
