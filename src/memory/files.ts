// Which files are memory: `MEMORY.md`, `memory.md` and `memory/**/*.md` of the workspace, plus the
// `memorySearch.extraPaths` folders (scanned for *.md) and .md files. Symlinks are never followed
// (a linked file or folder is skipped), nor are dot-folders; only regular Markdown files count.
import { type Dirent, lstatSync, type Stats } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** Long-term memory files at the workspace root, preferred first (as the bootstrap injects them). */
export const ROOT_MEMORY_FILES: readonly string[] = ["MEMORY.md", "memory.md"];
/** The folder of daily notes inside the workspace. */
export const MEMORY_FOLDER = "memory";

/** One memory file as found on disk. */
export interface MemoryFile {
  /** Absolute path. */
  path: string;
  /** How results name it: workspace-relative (`memory/2026-01-02.md`), else absolute. */
  shown: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** The memory files of a workspace, sorted by `shown`, and what could not be used. */
export interface MemoryFileList {
  files: MemoryFile[];
  /** One line per extra path that is missing, a symlink or not Markdown. */
  problems: string[];
}

/** Where to look. */
export interface ListMemoryFilesParams {
  workspaceDir: string;
  extraPaths?: readonly string[];
  /** What `~` in an extra path stands for (the config's home); default the OS home. */
  home?: string;
}

function errnoCode(err: unknown): string | undefined {
  return err instanceof Error ? (err as NodeJS.ErrnoException).code : undefined;
}

function isMarkdown(name: string): boolean {
  return name.toLowerCase().endsWith(".md");
}

function isInside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** A path as results show it: workspace-relative inside the workspace (with `/`), else absolute. */
export function shownPath(workspaceDir: string, path: string): string {
  const root = resolve(workspaceDir);
  return isInside(root, path) ? relative(root, path).split(sep).join("/") : path;
}

/** An extra path resolved: `~` is the home folder, relative paths start at the workspace. */
export function resolveExtraPath(p: { workspaceDir: string; raw: string; home?: string }): string {
  const trimmed = p.raw.trim();
  const home = p.home ?? homedir();
  if (trimmed === "~") return home;
  if (trimmed.startsWith("~/")) return join(home, trimmed.slice(2));
  return resolve(p.workspaceDir, trimmed);
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

function lstatSyncOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw err;
  }
}

async function readDirOrEmpty(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = errnoCode(err);
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw err;
  }
}

/** Every regular *.md under `dir`, not entering symlinks or dot-folders. */
async function walkMarkdown(dir: string): Promise<string[]> {
  const found: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const entry of await readDirOrEmpty(current)) {
      const path = join(current, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".")) pending.push(path);
      else if (entry.isFile() && isMarkdown(entry.name)) found.push(path);
    }
  }
  return found;
}

/** Candidate paths of the workspace itself (existence checked by the caller). */
async function workspaceCandidates(root: string): Promise<string[]> {
  const folder = join(root, MEMORY_FOLDER);
  const info = await lstatOrUndefined(folder);
  const daily = info?.isDirectory() ? await walkMarkdown(folder) : [];
  return [...ROOT_MEMORY_FILES.map((name) => join(root, name)), ...daily];
}

async function extraCandidates(params: ListMemoryFilesParams, problems: string[]) {
  const out: string[] = [];
  const root = resolve(params.workspaceDir);
  for (const raw of params.extraPaths ?? []) {
    if (raw.trim() === "") continue;
    const path = resolveExtraPath({
      workspaceDir: root,
      raw,
      ...(params.home ? { home: params.home } : {}),
    });
    const info = await lstatOrUndefined(path);
    if (!info) problems.push(`memorySearch.extraPaths: ${raw}: not found`);
    else if (info.isSymbolicLink())
      problems.push(`memorySearch.extraPaths: ${raw}: a symlink (symlinks are not followed)`);
    else if (info.isDirectory()) out.push(...(await walkMarkdown(path)));
    else if (info.isFile() && isMarkdown(path)) out.push(path);
    else problems.push(`memorySearch.extraPaths: ${raw}: not a folder or a .md file`);
  }
  return out;
}

/** Lists the memory files (see the file comment); a file reached twice is listed once. */
export async function listMemoryFiles(params: ListMemoryFilesParams): Promise<MemoryFileList> {
  const root = resolve(params.workspaceDir);
  const problems: string[] = [];
  const candidates = [
    ...(await workspaceCandidates(root)),
    ...(await extraCandidates(params, problems)),
  ];
  const unique = [...new Set(candidates)];
  // Synchronous on purpose: every search stats every file, and 1,000 lstatSync calls take a few
  // milliseconds where 1,000 promise round trips through libuv's pool take several times that.
  const infos = unique.map((path) => lstatSyncOrUndefined(path));
  const byPath = new Map<string, MemoryFile>();
  const seenInodes = new Set<string>();
  for (const [i, path] of unique.entries()) {
    const info = infos[i];
    if (!info?.isFile()) continue;
    const inode = `${info.dev}:${info.ino}`;
    if (seenInodes.has(inode)) continue;
    seenInodes.add(inode);
    byPath.set(path, {
      path,
      shown: shownPath(root, path),
      size: info.size,
      mtimeMs: info.mtimeMs,
      ino: info.ino,
    });
  }
  const files = [...byPath.values()].sort((a, b) =>
    a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0,
  );
  return { files, problems };
}
