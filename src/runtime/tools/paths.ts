// Path resolution for file tools: relative paths resolve inside the workspace (the cwd); absolute paths are
// allowed unless the tools are workspace-only, when anything escaping the workspace root (`..`, symlinks) is refused.
import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { errnoCode, ToolError } from "./types.js";

/** What a file tool needs to place a path. */
export interface ToolPathContext {
  /** The agent workspace: the cwd of every tool. */
  workspaceDir: string;
  /** When true, paths must stay inside `workspaceDir` (after resolving symlinks). */
  workspaceOnly: boolean;
  /** A sandboxed session: paths are the sandbox's (`/workspace/...` or relative), confined to it. */
  sandbox?: SandboxPathContext;
}

/** How a sandboxed session's file tools see the host dir mounted at /workspace. */
export interface SandboxPathContext {
  /** The mount point inside the sandbox (`/workspace`). */
  mount: string;
  /** Set for `workspaceAccess: "ro"`: the config key, named when a write is refused. */
  readOnlyBy?: string;
}

/** The host path of a sandbox path (`/workspace/a` → `<workspaceDir>/a`); undefined: outside it. */
function fromSandboxPath(ctx: ToolPathContext, mount: string, raw: string): string | undefined {
  if (!isAbsolute(raw)) return resolve(ctx.workspaceDir, raw);
  const normalized = resolve(raw);
  if (normalized === mount) return resolve(ctx.workspaceDir);
  if (normalized.startsWith(`${mount}/`))
    return resolve(ctx.workspaceDir, normalized.slice(mount.length + 1));
  return undefined;
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function expandTilde(raw: string): string {
  if (raw === "~") return homedir();
  if (raw.startsWith("~/") || raw.startsWith(`~${sep}`)) return join(homedir(), raw.slice(2));
  return raw;
}

/** Real path of `target`, or of its nearest existing ancestor with the missing tail re-appended. */
async function realpathOfNearest(target: string): Promise<string> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : join(real, ...missing.reverse());
    } catch (err) {
      const code = errnoCode(err);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err;
      const parent = dirname(current);
      if (parent === current) return target;
      missing.push(current.slice(parent.length).replace(/^[\\/]+/, ""));
      current = parent;
    }
  }
}

/** Resolves a tool's `path` argument to an absolute path; throws a {@link ToolError} for a workspace escape. */
export async function resolveToolPath(ctx: ToolPathContext, rawPath: string): Promise<string> {
  const trimmed = typeof rawPath === "string" ? rawPath.trim() : "";
  if (trimmed === "") throw new ToolError("A non-empty `path` is required.");
  const root = resolve(ctx.workspaceDir);
  const sandbox = ctx.sandbox;
  const refuse = () =>
    new ToolError(
      sandbox
        ? `Path "${trimmed}" is outside the sandbox workspace ${sandbox.mount}; in this sandboxed session file tools reach only ${sandbox.mount} (relative paths resolve there).`
        : `Path "${trimmed}" is outside the workspace (${root}); file tools are restricted to the workspace.`,
    );
  let absolute: string;
  if (sandbox) {
    const mapped = trimmed.startsWith("~")
      ? undefined
      : fromSandboxPath(ctx, sandbox.mount, trimmed);
    if (mapped === undefined) throw refuse();
    absolute = mapped;
  } else {
    const expanded = expandTilde(trimmed);
    absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(root, expanded);
    if (!ctx.workspaceOnly) return absolute;
  }
  if (!isInside(root, absolute)) throw refuse();
  const realRoot = await realpathOfNearest(root);
  const realTarget = await realpathOfNearest(absolute);
  if (!isInside(realRoot, realTarget)) throw refuse();
  return absolute;
}

/** A path as the model should see it: workspace-relative (sandbox: `/workspace/...`), else absolute. */
export function displayPath(ctx: ToolPathContext, absolute: string): string {
  const root = resolve(ctx.workspaceDir);
  if (ctx.sandbox && isInside(root, absolute)) {
    const rel = relative(root, absolute);
    return rel === "" ? ctx.sandbox.mount : `${ctx.sandbox.mount}/${rel.split(sep).join("/")}`;
  }
  return isInside(root, absolute) && absolute !== root ? relative(root, absolute) : absolute;
}

/** {@link resolveToolPath} for a tool that writes: refused when the sandbox workspace is read-only. */
export async function resolveWritablePath(ctx: ToolPathContext, rawPath: string): Promise<string> {
  const path = await resolveToolPath(ctx, rawPath);
  if (ctx.sandbox?.readOnlyBy)
    throw new ToolError(
      `${displayPath(ctx, path)} is in the read-only sandbox workspace (${ctx.sandbox.readOnlyBy} is "ro"); nothing was written.`,
    );
  return path;
}
