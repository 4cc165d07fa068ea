// Which file `pincer logs` reads, found the way the gateway picks the file it writes
// (gateway/logging/rotating-file.ts): `logging.file` as configured, else the dated
// `openclaw-YYYY-MM-DD.log` in /tmp/openclaw (today's, else the newest one there). And the last lines of a file, read from its end only.
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_LOG_DIR, resolveLogFilePath } from "../../gateway/logging/rotating-file.js";

/** What the gateway's `logging` block says about its file. */
export interface LogFileSettings {
  file?: string;
  level?: string;
}

/** Where the log is: a fixed file, or the dated files of a directory (which one changes daily). */
export interface LogSource {
  /** The file to read now (it may not exist yet). */
  path: string;
  /** True when the path follows the date (the default), so a follower switches files at midnight. */
  dated: boolean;
  /** Directory of the dated files (the default /tmp/openclaw). */
  dir: string;
  /** Set when `logging.level` is `silent`: the gateway writes no file at all. */
  fileLoggingOff: boolean;
}

const DATED = /^openclaw-\d{4}-\d{2}-\d{2}\.log$/;

/** The newest dated log in `dir` (names sort by date), if any. */
function newestDated(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const dated = names.filter((name) => DATED.test(name)).sort();
  return dated.length > 0 ? join(dir, dated.at(-1) as string) : undefined;
}

/** The log file for `now`: `logging.file`, else today's dated file, else the newest dated one. */
export function resolveLogSource(params: {
  logging: LogFileSettings | undefined;
  now: number;
  dir?: string;
}): LogSource {
  const dir = params.dir ?? DEFAULT_LOG_DIR;
  const fileLoggingOff = params.logging?.level === "silent";
  const file = params.logging?.file;
  if (file) return { path: file, dated: false, dir, fileLoggingOff };
  const today = resolveLogFilePath({ dir, now: params.now });
  const path = existsSync(today) ? today : (newestDated(dir) ?? today);
  return { path, dated: true, dir, fileLoggingOff };
}

/** The file a dated source should be on at `now` (a new day's file once it exists). */
export function currentDatedPath(source: LogSource, now: number): string {
  if (!source.dated) return source.path;
  const today = resolveLogFilePath({ dir: source.dir, now });
  return existsSync(today) ? today : source.path;
}

/** The last `limit` complete lines within the last `maxBytes` of `path` (a line still being
 *  written is not one), and the size read up to: the end of the last complete line. */
export function readLastLines(params: { path: string; limit: number; maxBytes: number }): {
  lines: string[];
  size: number;
} {
  const fd = openSync(params.path, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - params.maxBytes);
    const buffer = Buffer.alloc(size - start);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    const lines = buffer.subarray(0, read).toString("utf8").split("\n");
    // Starting mid-file, the first piece is the tail of a line cut by the byte window.
    if (start > 0) lines.shift();
    // The last piece is "" after a complete line, else a line still being written: left for the
    // next read (`size` stops before it, so `--follow` prints it once it is whole).
    const unfinished = lines.pop() ?? "";
    return {
      lines: lines.slice(-params.limit),
      size: start + read - Buffer.byteLength(unfinished),
    };
  } finally {
    closeSync(fd);
  }
}
