// What `pincer uninstall` would remove, decided before anything is touched: the gateway service unit,
// the state dir (keeping workspaces inside it unless --workspace), the configured agent workspaces. Only
// those paths are ever candidates; `/`, the home dir and any folder holding the home dir or the state
// dir (also reached through a symlinked parent) are refused, and configured paths outside the state dir (config file, agentDir, session store)
// are listed as kept.
import { existsSync, lstatSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { listAgents } from "../agents/roster.js";
import type { LoadedConfig } from "../config/index.js";

/** One thing uninstall acts on. */
export interface UninstallItem {
  kind: "service" | "state" | "workspace";
  path: string;
  /** Paths inside `path` that stay (workspaces inside the state dir without --workspace). */
  keep: string[];
  /** A symlink: only the link goes, never what it points to. */
  symlink: boolean;
}

/** The plan: what goes, what stays (and why), what is refused (and why). */
export interface UninstallPlan {
  remove: UninstallItem[];
  kept: Array<{ path: string; reason: string }>;
  refused: Array<{ path: string; reason: string }>;
}

/** Which parts were asked for. */
export interface UninstallScope {
  service: boolean;
  state: boolean;
  workspace: boolean;
}

/** True when `inner` is `outer` or lies inside it (lexically, both resolved). */
export function isWithin(outer: string, inner: string): boolean {
  const rel = relative(resolve(outer), resolve(inner));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Where `path` really is: its parent folders' symlinks followed (a last-component symlink stays, as
 * only the link itself is removed). Unresolvable parents leave the lexical path. */
function physicalPath(path: string): string {
  const resolved = resolve(path);
  try {
    return join(realpathSync(dirname(resolved)), basename(resolved));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return resolved;
    throw err;
  }
}

/** A path as typed and where it really is (both are checked: `/tmp/alias/home` may be the home). */
function bothForms(path: string): string[] {
  const resolved = resolve(path);
  const real = existsSync(resolved) ? realpathSync(resolved) : resolved;
  return [...new Set([resolved, physicalPath(resolved), real])];
}

/** Why a path must never be removed (or used as a workspace) wholesale, if it must not: lexically or
 * through symlinks, it is the root, or holds the home dir or the state dir. */
export function dangerOf(
  path: string,
  params: { home: string; stateDir?: string },
): string | undefined {
  const targets = [resolve(path), physicalPath(path)];
  const homes = bothForms(params.home);
  const stateDirs = params.stateDir ? bothForms(params.stateDir) : [];
  for (const target of targets) {
    if (target === dirname(target)) return "it is the file system root";
    if (homes.some((home) => isWithin(target, home)))
      return `it is or contains the home dir ${params.home}`;
    if (stateDirs.some((stateDir) => isWithin(target, stateDir)))
      return `it is or contains the state dir ${params.stateDir}`;
  }
  return undefined;
}

function isSymlink(path: string): boolean {
  return lstatSync(path).isSymbolicLink();
}

/** Builds the plan from the config and the service target; reads only. */
export function planUninstall(params: {
  loaded: LoadedConfig;
  scope: UninstallScope;
  service: { unitPath: string; installed: boolean };
}): UninstallPlan {
  const { loaded, scope } = params;
  const { home, stateDir } = loaded.paths;
  const plan: UninstallPlan = { remove: [], kept: [], refused: [] };
  if (scope.service) {
    if (params.service.installed) {
      plan.remove.push({
        kind: "service",
        path: params.service.unitPath,
        keep: [],
        symlink: false,
      });
    } else {
      plan.kept.push({ path: params.service.unitPath, reason: "no gateway service installed" });
    }
  }
  const agents = listAgents(loaded.config, loaded.paths);
  const workspaces = [...new Set(agents.map((agent) => resolve(agent.workspace)))];
  for (const workspace of workspaces) {
    if (!existsSync(workspace)) continue;
    if (!scope.workspace) {
      if (scope.state && isWithin(stateDir, workspace)) {
        plan.kept.push({ path: workspace, reason: "a workspace (add --workspace to remove it)" });
      }
      continue;
    }
    const danger = dangerOf(workspace, { home, stateDir });
    if (danger) {
      plan.refused.push({ path: workspace, reason: `not removing workspace: ${danger}` });
      continue;
    }
    plan.remove.push({
      kind: "workspace",
      path: workspace,
      keep: [],
      symlink: isSymlink(workspace),
    });
  }
  if (scope.state && existsSync(stateDir)) {
    const danger = dangerOf(stateDir, { home });
    if (danger)
      plan.refused.push({ path: stateDir, reason: `not removing the state dir: ${danger}` });
    else {
      const keep = scope.workspace
        ? []
        : workspaces.filter((ws) => isWithin(stateDir, ws) && existsSync(ws));
      plan.remove.push({ kind: "state", path: stateDir, keep, symlink: isSymlink(stateDir) });
      const outside = [
        { path: loaded.path, what: "config file" },
        ...agents.map((agent) => ({ path: agent.agentDir, what: `agent ${agent.id}'s agentDir` })),
        ...agents.map((agent) => ({
          path: agent.sessionsDir,
          what: `agent ${agent.id}'s sessions`,
        })),
      ];
      for (const item of outside) {
        if (existsSync(item.path) && !isWithin(stateDir, item.path)) {
          plan.kept.push({ path: item.path, reason: `${item.what}, outside the state dir` });
        }
      }
    }
  }
  const seen = new Set<string>();
  plan.kept = plan.kept.filter((item) => !seen.has(item.path) && seen.add(item.path));
  return plan;
}
