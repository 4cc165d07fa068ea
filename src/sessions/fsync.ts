// fsync for the store's durable writes: asynchronous of a kept fd (journal, open transcripts) or of a
// path that may have been archived or removed since it was written (nothing left to sync), and a
// blocking one of a directory for the rare write that must be on disk before the next step.
import { fsync } from "node:fs";
import { open } from "node:fs/promises";

/** fsync of an open fd, off the main thread. */
export function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/** fsync of a file or directory by path; a path gone since (ENOENT) is a no-op. */
export async function fsyncPath(path: string): Promise<void> {
  if (process.platform === "win32" && !path.endsWith(".jsonl")) return; // no directory fsync there
  const handle = await open(path, "r").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  if (!handle) return;
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Blocking fsync of a directory (re-exported: the store imports its fsyncs from here). */
export { fsyncDirSync } from "../lib/durable-io.js";
