// memory_get's read: a line slice of one memory file, and only of one — the path must be a file the
// index would list (files.ts): anything else, a `..` escape, or a symlink is refused with a reason.
import { lstat, readFile, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { listMemoryFiles } from "./files.js";

/** Inputs of {@link readMemorySlice}. */
export interface ReadMemorySliceParams {
  workspaceDir: string;
  extraPaths: readonly string[];
  /** As memory_search shows it (workspace-relative or absolute). */
  path: string;
  /** First line, 1-based (default 1). */
  from?: number;
  /** Line count (default: to the end, within `maxChars`). */
  lines?: number;
  /** What `~` stands for (the config's home); default the OS home. */
  home?: string;
  /** Characters returned at most, cut at a line boundary (the first line is cut if it alone is longer). */
  maxChars: number;
}

/** A slice: lines `from`..`to` of `totalLines`; `nextFrom` when the file goes on. */
export interface MemorySlice {
  path: string;
  from: number;
  to: number;
  totalLines: number;
  text: string;
  truncated: boolean;
  nextFrom?: number;
}

/** The slice, or why the path was refused. */
export type MemorySliceResult = { ok: true; slice: MemorySlice } | { ok: false; error: string };

const SCOPE =
  "memory_get reads MEMORY.md, memory.md, memory/**/*.md and memorySearch.extraPaths (Markdown only)";

function absoluteOf(p: { workspaceDir: string; raw: string; home?: string }): string {
  if (p.raw === "~" || p.raw.startsWith("~/")) return join(p.home ?? homedir(), p.raw.slice(2));
  return isAbsolute(p.raw) ? resolve(p.raw) : resolve(p.workspaceDir, p.raw);
}

/** Why `path` (not a listed memory file) is refused. */
async function refusal(raw: string, path: string): Promise<string> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) return `${raw} is a symlink; symlinks are not followed (${SCOPE}).`;
  const real = info ? await realpath(path).catch(() => path) : path;
  if (info && real !== path) return `${raw} leads through a symlink; ${SCOPE}.`;
  if (info?.isDirectory()) return `${raw} is a folder, not a memory file; ${SCOPE}.`;
  if (!info) return `No memory file ${raw}; ${SCOPE}.`;
  return `${raw} is not a memory file; ${SCOPE}.`;
}

function sliceLines(p: { lines: string[]; from: number; count: number; maxChars: number }) {
  const picked: string[] = [];
  let chars = 0;
  for (let i = p.from - 1; i < p.lines.length && picked.length < p.count; i++) {
    const line = p.lines[i];
    if (chars + line.length + 1 > p.maxChars) {
      if (picked.length === 0) picked.push(line.slice(0, p.maxChars));
      break;
    }
    picked.push(line);
    chars += line.length + 1;
  }
  return picked;
}

/** Reads a slice of one memory file (see the file comment). */
export async function readMemorySlice(params: ReadMemorySliceParams): Promise<MemorySliceResult> {
  const raw = params.path.trim();
  if (raw === "") return { ok: false, error: "A non-empty `path` is required." };
  const root = resolve(params.workspaceDir);
  const home = params.home ? { home: params.home } : {};
  const path = absoluteOf({ workspaceDir: root, raw, ...home });
  const listed = await listMemoryFiles({
    workspaceDir: root,
    extraPaths: params.extraPaths,
    ...home,
  });
  const file = listed.files.find((candidate) => candidate.path === path);
  if (!file) return { ok: false, error: await refusal(raw, path) };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    return { ok: false, error: `Cannot read ${file.shown}: ${(err as Error).message}` };
  }
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const totalLines = lines.length;
  const from = params.from ?? 1;
  if (totalLines === 0)
    return {
      ok: true,
      slice: { path: file.shown, from: 1, to: 0, totalLines, text: "", truncated: false },
    };
  if (from > totalLines)
    return {
      ok: false,
      error: `from ${from} is past the end of ${file.shown} (${totalLines} lines).`,
    };
  const count = params.lines ?? totalLines;
  const picked = sliceLines({ lines, from, count, maxChars: params.maxChars });
  const to = from + picked.length - 1;
  const truncated = to < Math.min(totalLines, from + count - 1);
  const slice: MemorySlice = {
    path: file.shown,
    from,
    to,
    totalLines,
    text: picked.join("\n"),
    truncated,
    ...(to < totalLines ? { nextFrom: to + 1 } : {}),
  };
  return { ok: true, slice };
}
