// A cheap fingerprint of one version of a file (inode, size, mtime) for caches that re-read a file
// only when it changed: an atomic rewrite (new inode), an append (size) or an edit in place (mtime)
// all change the stamp.
import { type Stats, statSync } from "node:fs";

/** Inode, size and mtime of a file at one moment. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The stamp of a stat result. */
export function stampOf(stat: Stats): FileStamp {
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

/** The file's current stamp; undefined when it (or a parent folder) does not exist. */
export function readFileStamp(path: string): FileStamp | undefined {
  let found: Stats | undefined;
  try {
    found = statSync(path, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw err;
  }
  return found ? stampOf(found) : undefined;
}

/** True when both stamps name the same version of a file (or both files are absent). */
export function sameFileStamp(a: FileStamp | undefined, b: FileStamp | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}
