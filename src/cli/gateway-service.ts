// What the `pincer gateway install|uninstall|stop|restart|status` commands share: the service
// target (unit name and path for this profile), the injectable dependencies (systemctl runner,
// node binary, CLI script) and running one systemctl step with its failure reported.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveStatePaths, type StatePaths } from "../config/index.js";
import {
  createSystemctlRunner,
  findSystemctl,
  formatSystemctl,
  type SystemctlRunner,
} from "../daemon/systemctl.js";
import { resolveGatewayServiceName, resolveGatewayUnitPath } from "../daemon/systemd-unit.js";
import { findPackageRoot } from "../lib/package-root.js";
import type { CliContext } from "./context.js";

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

function packageCliPath(): string {
  const root = findPackageRoot(import.meta.url);
  if (!root) return process.argv[1] ?? "pincer";
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
    nodePath: process.execPath,
    cliPath: packageCliPath(),
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

/** Runs one `systemctl --user …` step; on failure prints the command and its error. */
export async function runSystemctlStep(
  ctx: CliContext,
  systemctl: SystemctlRunner,
  args: string[],
): Promise<boolean> {
  const result = await systemctl(args);
  if (result.code === 0) return true;
  const detail = (result.stderr || result.stdout).trim();
  ctx.stderr(
    `${formatSystemctl(args)} failed (exit ${result.code})${detail ? `: ${detail}` : ""}\n`,
  );
  return false;
}
