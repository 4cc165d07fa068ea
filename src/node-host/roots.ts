// File access confined to the node's roots: a path resolves against the first root when relative,
// must lie inside a root lexically (no `..` way out), and its real path (every symlink followed)
// must too; for a write the parent's real path is checked and an existing symlink is refused, so no
// symlink inside a root leads out of it. Roots themselves are real paths, fixed at start.
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** An invoke failure as the node reports it (`node.invoke.result` error). */
export interface NodeCommandError {
  code: string;
  message: string;
}

/** A path inside the roots, or why not. */
export type RootedPath = { ok: true; path: string } | { ok: false; error: NodeCommandError };

/** Whether `path` is `root` or below it (both absolute and normalized). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** The roots as real paths (each must exist and be a directory); throws naming a bad one. */
export async function realRoots(roots: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) {
    const real = await realpath(resolve(root)).catch((err: unknown) => {
      throw new Error(`root ${root} cannot be used: ${(err as Error).message}`);
    });
    if (!(await lstat(real)).isDirectory()) throw new Error(`root ${root} is not a directory`);
    out.push(real);
  }
  return out;
}

const outside = (path: string): RootedPath => ({
  ok: false,
  error: { code: "PERMISSION_DENIED", message: `${path} is outside the node's roots` },
});

const errnoOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Resolves `requested` for reading (it must exist) or writing (its directory must exist). */
export async function resolveInRoots(params: {
  roots: readonly string[];
  requested: string;
  access: "read" | "write";
}): Promise<RootedPath> {
  const { roots, requested } = params;
  if (roots.length === 0) {
    return {
      ok: false,
      error: { code: "PERMISSION_DENIED", message: "this node has no file roots" },
    };
  }
  const lexical = resolve(roots[0]!, requested);
  if (!roots.some((root) => isInside(root, lexical))) return outside(requested);
  const within = (real: string) => roots.some((root) => isInside(root, real));
  if (params.access === "read") {
    try {
      const real = await realpath(lexical);
      return within(real) ? { ok: true, path: real } : outside(requested);
    } catch (err) {
      if (errnoOf(err) === "ENOENT") {
        return { ok: false, error: { code: "NOT_FOUND", message: `${requested} does not exist` } };
      }
      throw err;
    }
  }
  let parent: string;
  try {
    parent = await realpath(dirname(lexical));
  } catch (err) {
    if (errnoOf(err) === "ENOENT") {
      return {
        ok: false,
        error: { code: "NOT_FOUND", message: `the directory of ${requested} does not exist` },
      };
    }
    throw err;
  }
  const target = resolve(parent, basename(lexical));
  if (!within(target)) return outside(requested);
  const existing = await lstat(target).catch((err: unknown) => {
    if (errnoOf(err) === "ENOENT") return undefined;
    throw err;
  });
  if (existing?.isSymbolicLink()) {
    return {
      ok: false,
      error: { code: "PERMISSION_DENIED", message: `${requested} is a symlink; not written` },
    };
  }
  if (existing?.isDirectory()) {
    return {
      ok: false,
      error: { code: "INVALID_REQUEST", message: `${requested} is a directory` },
    };
  }
  return { ok: true, path: target };
}
