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
  const expanded = expandTilde(trimmed);
  const absolute = isAbsolute(expanded) ? resolve(expanded) : resolve(root, expanded);
  if (!ctx.workspaceOnly) return absolute;
  const refuse = () =>
    new ToolError(
      `Path "${trimmed}" is outside the workspace (${root}); file tools are restricted to the workspace.`,
    );
  if (!isInside(root, absolute)) throw refuse();
  const realRoot = await realpathOfNearest(root);
  const realTarget = await realpathOfNearest(absolute);
  if (!isInside(realRoot, realTarget)) throw refuse();
  return absolute;
}

/** A path as the model should see it: workspace-relative when inside the workspace, else absolute. */
export function displayPath(ctx: ToolPathContext, absolute: string): string {
  const root = resolve(ctx.workspaceDir);
  return isInside(root, absolute) && absolute !== root ? relative(root, absolute) : absolute;
}
