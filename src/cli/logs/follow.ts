// `pincer logs --follow`: polls the log file and hands over each new complete line until the signal
// aborts. Survives the gateway's rotation (the file renamed to `.1.log` and a fresh one created: the
// old one is read to its end first, then any newer archive that rotated past it while we slept, then
// the new one from its start), a truncation in place, the next
// day's dated file, and a file that does not exist yet.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { archivePath, MAX_LOG_ARCHIVES } from "../../gateway/logging/rotating-file.js";
import { abortableSleep } from "../../lib/abortable-sleep.js";
import { currentDatedPath, type LogSource } from "./source.js";

/** Inputs of {@link followLog}. */
export interface FollowLogParams {
  source: LogSource;
  /** Where the initial read stopped; default: the end of the current file. */
  from?: { path: string; offset: number };
  intervalMs: number;
  signal: AbortSignal;
  onLine: (line: string) => void;
  /** Switches of file (rotation, new day, created), for a dim notice. */
  onSwitch: (path: string, why: string) => void;
  now: () => number;
}

interface OpenFile {
  fd: number;
  path: string;
  ino: number;
  dev: number;
  offset: number;
}

function tryOpen(path: string, offset: number | "end"): OpenFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  const stats = fstatSync(fd);
  const start = offset === "end" ? stats.size : offset > stats.size ? 0 : offset;
  return { fd, path, ino: stats.ino, dev: stats.dev, offset: start };
}

function identity(path: string): { ino: number; dev: number } | undefined {
  try {
    const stats = statSync(path);
    return { ino: stats.ino, dev: stats.dev };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Follows the log until `signal` aborts; resolves then. */
export async function followLog(params: FollowLogParams): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024);
  let carry = "";
  let file: OpenFile | undefined = params.from
    ? tryOpen(params.from.path, params.from.offset)
    : tryOpen(params.source.path, "end");

  const emit = (text: string) => {
    const parts = `${carry}${text}`.split("\n");
    carry = parts.pop() ?? "";
    for (const line of parts) params.onLine(line);
  };
  const drain = (open: OpenFile) => {
    const size = fstatSync(open.fd).size;
    if (size < open.offset) {
      // Truncated in place: start over from its beginning.
      open.offset = 0;
      carry = "";
    }
    for (;;) {
      const n = readSync(open.fd, chunk, 0, chunk.length, open.offset);
      if (n === 0) break;
      open.offset += n;
      emit(chunk.subarray(0, n).toString("utf8"));
    }
  };
  const close = (open: OpenFile) => {
    if (carry !== "") params.onLine(carry);
    carry = "";
    closeSync(open.fd);
  };

  /** Archives newer than the one `open` became (several rotations within one poll), oldest first. */
  const skippedArchives = (open: OpenFile): string[] => {
    const archives = Array.from({ length: MAX_LOG_ARCHIVES }, (_, i) =>
      archivePath(open.path, i + 1),
    );
    const at = archives.findIndex((path) => {
      const id = identity(path);
      return id?.ino === open.ino && id.dev === open.dev;
    });
    return at <= 0 ? [] : archives.slice(0, at).reverse();
  };

  const tick = () => {
    if (file) drain(file);
    const wanted = currentDatedPath(params.source, params.now());
    const now = identity(wanted);
    if (!now) return; // between a rotation's rename and create, or not created yet
    if (file && file.path === wanted && file.ino === now.ino && file.dev === now.dev) return;
    const why = !file ? "created" : file.path !== wanted ? "new day" : "rotated";
    if (file) {
      const missed = why === "rotated" ? skippedArchives(file) : [];
      close(file);
      for (const path of missed) {
        const archive = tryOpen(path, 0);
        if (!archive) continue;
        drain(archive);
        close(archive);
      }
    }
    file = tryOpen(wanted, 0);
    if (!file) return;
    params.onSwitch(wanted, why);
    drain(file);
  };

  try {
    while (!params.signal.aborted) {
      tick();
      await abortableSleep(params.intervalMs, params.signal);
    }
    if (file) drain(file);
  } finally {
    if (file) close(file);
  }
}
