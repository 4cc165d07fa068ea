// What the `pincer gateway install|uninstall|stop|restart|status` commands share: the service
// target (unit name and path for this profile), the injectable dependencies (systemctl runner,
// node binary, CLI script), running one systemctl step, and what a failed step means: no user bus
// (not a systemd user session), the unit not loaded, or another failure.
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { resolveStatePaths, type StatePaths } from "../../config/index.js";
import {
  createSystemctlRunner,
  findSystemctl,
  formatSystemctl,
  type SystemctlRunner,
} from "../../daemon/systemctl.js";
import { resolveGatewayServiceName, resolveGatewayUnitPath } from "../../daemon/systemd-unit.js";
import { findPackageRoot } from "../../lib/package-root.js";
import type { CliContext } from "../command-context.js";

/** Why a systemctl step failed: no user bus, the unit not loaded/known, or anything else. */
export type SystemctlFailureKind = "no-bus" | "not-loaded" | "failed";

/** The outcome of one systemctl step. */
export type SystemctlStep =
  | { ok: true }
  | { ok: false; kind: SystemctlFailureKind; command: string; detail: string; code: number };

/** What the service commands run against; tests pass a fake systemctl runner. */
export interface ServiceDeps {
  /** `systemctl` runner; undefined when systemctl is not on PATH. */
  systemctl: SystemctlRunner | undefined;
  /** The node binary the unit runs. */
  nodePath: string;
  /** This package's CLI script. */
  cliPath: string;
}

/** The unit of the active profile. */
export interface ServiceTarget {
  name: string;
  unitPath: string;
  paths: StatePaths;
  /** Whether the unit file exists. */
  installed: boolean;
}

function packageCliPath(scriptPath: string | undefined): string {
  const root = findPackageRoot(import.meta.url);
  if (!root) return scriptPath ?? "pincer";
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    bin?: Record<string, string>;
  };
  return join(root, pkg.bin?.pincer ?? "dist/bin/pincer.js");
}

/** The real dependencies: systemctl from the command's PATH, this node, this package's CLI. */
export function defaultServiceDeps(ctx: CliContext): ServiceDeps {
  const binary = findSystemctl(ctx.env);
  return {
    systemctl: binary ? createSystemctlRunner(binary, ctx.env) : undefined,
    nodePath: ctx.execPath,
    cliPath: packageCliPath(ctx.scriptPath),
  };
}

/** Resolves the unit name and path for the context's profile. */
export function resolveServiceTarget(ctx: CliContext): ServiceTarget {
  const paths = resolveStatePaths({
    env: ctx.env,
    ...(ctx.profile ? { profile: ctx.profile } : {}),
  });
  const name = resolveGatewayServiceName(paths.profile);
  const unitPath = resolveGatewayUnitPath({ env: ctx.env, home: paths.home, serviceName: name });
  return { name, unitPath, paths, installed: existsSync(unitPath) };
}

/** The `default.target.wants` link `systemctl enable` creates next to the unit. */
export function wantsLinkPath(unitPath: string): string {
  return join(dirname(unitPath), "default.target.wants", basename(unitPath));
}

const NO_BUS =
  /Failed to connect to (user scope )?bus|DBUS_SESSION_BUS_ADDRESS|XDG_RUNTIME_DIR|No medium found|Failed to get D-Bus connection/i;
const NOT_LOADED = /not loaded|not found|does not exist|No such file or directory/i;

/** Classifies a failed systemctl call by its message. */
export function classifySystemctlFailure(detail: string): SystemctlFailureKind {
  if (NO_BUS.test(detail)) return "no-bus";
  if (NOT_LOADED.test(detail)) return "not-loaded";
  return "failed";
}

/** Runs one `systemctl --user …` step and classifies a failure (nothing is printed). */
export async function runSystemctl(
  systemctl: SystemctlRunner,
  args: string[],
): Promise<SystemctlStep> {
  const result = await systemctl(args);
  if (result.code === 0) return { ok: true };
  const detail = (result.stderr || result.stdout).trim();
  return {
    ok: false,
    kind: classifySystemctlFailure(detail),
    command: formatSystemctl(args),
    detail,
    code: result.code,
  };
}

/** One line naming a failed step: command, exit code and systemctl's own message. */
export function describeStep(step: Extract<SystemctlStep, { ok: false }>): string {
  return `${step.command} failed (exit ${step.code})${step.detail ? `: ${step.detail}` : ""}`;
}

/** What is missing when systemctl cannot reach the user manager, and what to do about it. */
export function noUserBusMessage(
  env: Record<string, string | undefined>,
  step: Extract<SystemctlStep, { ok: false }>,
): string {
  const runtimeDir = env.XDG_RUNTIME_DIR?.trim();
  const busAddress = env.DBUS_SESSION_BUS_ADDRESS?.trim();
  const why =
    runtimeDir || busAddress
      ? `${runtimeDir ? `XDG_RUNTIME_DIR=${runtimeDir}` : `DBUS_SESSION_BUS_ADDRESS=${busAddress}`} is set, but no systemd user manager answers there`
      : "XDG_RUNTIME_DIR and DBUS_SESSION_BUS_ADDRESS are not set: this shell is not in a systemd user session (su/sudo, cron, a container, or ssh without lingering)";
  return [
    `no systemd user bus: ${describeStep(step)}`,
    `${why}.`,
    "to use the service: sudo loginctl enable-linger $USER, then log in again as this user (or export XDG_RUNTIME_DIR=/run/user/$(id -u)) and retry;",
    "or run the gateway without systemd: pincer gateway (in the foreground), or under your own supervisor (Docker, tmux, supervisord, ...).",
  ].join("\n");
}
