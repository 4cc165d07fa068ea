// Two blocking primitives of the crash-safe append logs (inbound journal, delivery queue, keyed
// journals) and of atomic writes: write a whole string to an fd, and fsync a directory so a created
// or renamed entry survives a power loss.
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

/** Writes all of `text` at the fd's position (looping over short writes); returns its byte length. */
export function writeWholeSync(fd: number, text: string): number {
  const buffer = Buffer.from(text, "utf8");
  let written = 0;
  while (written < buffer.length) written += writeSync(fd, buffer, written);
  return buffer.length;
}

/** Blocking fsync of a directory (its entries); a no-op on Windows, which cannot open one. */
export function fsyncDirSync(dir: string): void {
  if (process.platform === "win32") return;
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
