// Reading a file that may not exist: its text, or undefined when it is missing; every other error
// (permissions, a directory, I/O) is thrown, so a missing file is never confused with a broken one.
import { readFileSync } from "node:fs";

/** The file's UTF-8 text, or `undefined` when nothing is at `path` (ENOENT). */
export function readTextIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
