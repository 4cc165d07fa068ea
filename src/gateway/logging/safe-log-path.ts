// Where the gateway may write its log files. The default directory lives in the shared /tmp, so
// another local user could create it first (a squatting attack) to read the logs or to make the
// gateway append to a file of their choosing. A log directory is therefore created 0700 and used
// only if it is a real directory (or a symlink owned by you or root to one) owned by you or root
// and not writable by group or others unless it has the sticky bit; each log file is opened
// without following a symlink and must be a regular file you own with one link, kept at 0600.
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  type Stats,
  statSync,
} from "node:fs";

/** Raised when a log directory or file is unsafe to write (the logger then stays on the console). */
export class UnsafeLogPathError extends Error {
  constructor(message: string) {
    super(`${message}; set logging.file to a path in a directory only you can write`);
    this.name = "UnsafeLogPathError";
  }
}

/** The user the checks run for: `uid` undefined (Windows) skips the ownership checks. */
export interface LogPathOwner {
  uid: number | undefined;
}

/** The current process's user. */
export function currentLogPathOwner(): LogPathOwner {
  return { uid: typeof process.getuid === "function" ? process.getuid() : undefined };
}

const GROUP_OR_OTHER_WRITE = 0o022;
const STICKY = 0o1000;

function mode(stats: Stats): string {
  return `0${(stats.mode & 0o7777).toString(8)}`;
}

function trustedDirOwner(stats: Stats, owner: LogPathOwner): boolean {
  return owner.uid === undefined || stats.uid === owner.uid || stats.uid === 0;
}

/**
 * Creates `dir` (mode 0700, parents too) if missing and checks it is safe for log files;
 * throws {@link UnsafeLogPathError} naming the problem otherwise.
 */
export function prepareLogDir(dir: string, owner: LogPathOwner = currentLogPathOwner()): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const link = lstatSync(dir);
  if (link.isSymbolicLink() && !trustedDirOwner(link, owner)) {
    throw new UnsafeLogPathError(`log directory ${dir} is a symlink owned by uid ${link.uid}`);
  }
  const stats = link.isSymbolicLink() ? statSync(dir) : link;
  if (!stats.isDirectory()) throw new UnsafeLogPathError(`log directory ${dir} is not a directory`);
  if (!trustedDirOwner(stats, owner)) {
    throw new UnsafeLogPathError(
      `log directory ${dir} is owned by uid ${stats.uid}, not by you (uid ${owner.uid})`,
    );
  }
  if ((stats.mode & GROUP_OR_OTHER_WRITE) !== 0 && (stats.mode & STICKY) === 0) {
    throw new UnsafeLogPathError(
      `log directory ${dir} is writable by group or others (mode ${mode(stats)}, no sticky bit)`,
    );
  }
}

function openNoFollow(path: string): number {
  // O_NONBLOCK: opening a FIFO planted under the log name fails (ENXIO) instead of hanging.
  const flags =
    constants.O_WRONLY |
    constants.O_APPEND |
    constants.O_CREAT |
    (constants.O_NOFOLLOW ?? 0) |
    (constants.O_NONBLOCK ?? 0);
  try {
    return openSync(path, flags, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new UnsafeLogPathError(`log file ${path} is a symlink`);
    if (code === "ENXIO") throw new UnsafeLogPathError(`log file ${path} is not a regular file`);
    throw err;
  }
}

function refusal(path: string, stats: Stats, owner: LogPathOwner): string | undefined {
  if (!stats.isFile()) return `log file ${path} is not a regular file`;
  if (owner.uid !== undefined && stats.uid !== owner.uid) {
    return `log file ${path} is owned by uid ${stats.uid}, not by you (uid ${owner.uid})`;
  }
  if (stats.nlink > 1) return `log file ${path} has ${stats.nlink} hard links`;
  return undefined;
}

/**
 * Opens `path` for appending (created 0600): never through a symlink, only a regular file you own
 * with a single link; an existing file readable by others is narrowed to 0600. Returns the fd.
 */
export function openLogFileForAppend(
  path: string,
  owner: LogPathOwner = currentLogPathOwner(),
): number {
  const fd = openNoFollow(path);
  try {
    const stats = fstatSync(fd);
    const problem = refusal(path, stats, owner);
    if (problem) throw new UnsafeLogPathError(problem);
    if (owner.uid !== undefined && (stats.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
