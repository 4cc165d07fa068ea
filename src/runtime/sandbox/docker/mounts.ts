// What the container may mount, checked before `docker create`: the state dir (config, sessions,
// credentials, auth profiles), the config file and other agents' sandbox workspaces are never
// mounted, whatever `docker.binds` says, and a mount that would contain them is refused too. This
// is a second line behind the sandbox core's resolution: the backend refuses on its own.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import type { SandboxResult, SandboxSpec } from "../backend.js";
import { SANDBOX_WORKDIR } from "../backend.js";

/** Host paths no mount may expose. */
export interface ProtectedPaths {
  /** The state dir (`OPENCLAW_STATE_DIR` / `~/.openclaw[-profile]`). */
  stateDir: string;
  /** The config file (may live outside the state dir). */
  configPath: string;
}

/** One mount of the container, checked. */
export interface ContainerMount {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
}

/** True when `child` is `parent` or lies below it. */
function within(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The path with symlinks resolved where it exists (a link must not smuggle the state dir in). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Not there (yet): Docker would create it; the lexical path is what gets checked.
    return resolve(path);
  }
}

/** Why `hostPath` may not be mounted, or undefined when it may. */
function refusal(params: {
  hostPath: string;
  spec: SandboxSpec;
  guard: ProtectedPaths;
  isWorkspace: boolean;
}): string | undefined {
  const { spec, guard } = params;
  const path = real(params.hostPath);
  const stateDir = real(guard.stateDir);
  const what = params.isWorkspace ? "the sandbox workspace" : `bind "${params.hostPath}"`;
  if (within(stateDir, path) || within(real(guard.configPath), path)) {
    return `${what} would expose the state dir or config file (${stateDir}); it is never mounted into a sandbox`;
  }
  const workspaceDir = real(spec.workspaceDir);
  const workspaceRoot = real(spec.workspaceRoot);
  if (params.isWorkspace) {
    if (!within(path, stateDir) || within(path, workspaceRoot)) return undefined;
    const top = relative(stateDir, path).split(sep)[0] ?? "";
    if (top.startsWith("workspace")) return undefined;
    return `${what} ${path} lies inside the state dir (${stateDir}) outside any workspace`;
  }
  if (within(path, workspaceDir)) return undefined;
  if (within(path, workspaceRoot)) {
    return `${what} lies inside sandbox.workspaceRoot (${workspaceRoot}), where other sandboxes' workspaces live`;
  }
  if (within(path, stateDir)) {
    return `${what} lies inside the state dir (${stateDir}): sessions, credentials and other agents' files are never mounted`;
  }
  return undefined;
}

/** Why a container path is unusable as a mount target, or undefined. */
function targetRefusal(containerPath: string): string | undefined {
  if (!containerPath.startsWith("/")) return `mount target "${containerPath}" is not absolute`;
  const normal = resolve(containerPath);
  if (normal === "/") return 'mount target "/" would replace the container\'s root';
  if (within(normal, SANDBOX_WORKDIR)) {
    return `mount target "${containerPath}" is inside ${SANDBOX_WORKDIR}, which is the workspace's`;
  }
  return undefined;
}

/** The container's mounts (the workspace at /workspace, then `docker.binds`), or why one is refused. */
export function checkedMounts(
  spec: SandboxSpec,
  guard: ProtectedPaths,
): SandboxResult<ContainerMount[]> {
  const workspace = refusal({ hostPath: spec.workspaceDir, spec, guard, isWorkspace: true });
  if (workspace) return { ok: false, error: `Sandbox refused: ${workspace}.` };
  const mounts: ContainerMount[] = [
    {
      hostPath: resolve(spec.workspaceDir),
      containerPath: SANDBOX_WORKDIR,
      readOnly: spec.workspaceAccess === "ro",
    },
  ];
  for (const bind of spec.binds) {
    if (!isAbsolute(bind.hostPath)) {
      return {
        ok: false,
        error: `Sandbox refused: sandbox.docker.binds host path "${bind.hostPath}" is not absolute.`,
      };
    }
    const why =
      refusal({ hostPath: bind.hostPath, spec, guard, isWorkspace: false }) ??
      targetRefusal(bind.containerPath);
    if (why) return { ok: false, error: `Sandbox refused: sandbox.docker.binds ${why}.` };
    mounts.push({ ...bind, hostPath: resolve(bind.hostPath) });
  }
  return { ok: true, value: mounts };
}

/** One CSV field of a `--mount` value, quoted when it holds a comma or quote (Docker parses CSV). */
function csvField(field: string): string {
  return /[",\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

/** The `--mount` argument of one bind mount. */
export function mountArg(mount: ContainerMount): string {
  const fields = [
    "type=bind",
    csvField(`source=${mount.hostPath}`),
    csvField(`target=${mount.containerPath}`),
  ];
  if (mount.readOnly) fields.push("readonly");
  return fields.join(",");
}
