// The gateway's log file: JSON lines appended to `logging.file`, else the dated default
// `/tmp/openclaw/openclaw-YYYY-MM-DD.log` (local date, a new file each day). At
// `logging.maxFileBytes` (default 100 MB) the active file becomes `<name>.1.log` (older archives
// shift up to `.5`) and writing continues in a fresh file. Each line is one append write, so a
// crash leaves whole lines behind. The directory and each file pass safe-log-path.ts's checks first
// (created 0700 / 0600, never another user's, never through a symlink).
import { closeSync, existsSync, fstatSync, renameSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { openLogFileForAppend, prepareLogDir } from "./safe-log-path.js";

/** Where OpenClaw writes its logs by default (POSIX). */
export const DEFAULT_LOG_DIR = "/tmp/openclaw";
/** Rotation threshold when `logging.maxFileBytes` is unset. */
export const DEFAULT_MAX_LOG_FILE_BYTES = 100 * 1024 * 1024;
/** Numbered archives kept beside the active file. */
export const MAX_LOG_ARCHIVES = 5;

/** `openclaw-YYYY-MM-DD.log` for a local date. */
export function datedLogFileName(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `openclaw-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.log`;
}

/** The log file path for a moment: the configured file, else the dated default. */
export function resolveLogFilePath(params: { file?: string; dir?: string; now: number }): string {
  if (params.file) return params.file;
  return join(params.dir ?? DEFAULT_LOG_DIR, datedLogFileName(new Date(params.now)));
}

/** `<base>.<n>.log` for `<base>.log` (or `<path>.<n>` for other names). */
export function archivePath(path: string, n: number): string {
  return path.endsWith(".log") ? `${path.slice(0, -4)}.${n}.log` : `${path}.${n}`;
}

/** Inputs of {@link RotatingLogFile}. */
export interface RotatingLogFileParams {
  /** Fixed path (`logging.file`); default: the dated file in `dir`. */
  file?: string;
  dir?: string;
  maxFileBytes?: number;
  now: () => number;
}

/** An append-only, size- and date-rotated log file; `write` takes one complete line. */
export class RotatingLogFile {
  private fd: number | undefined;
  private path = "";
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(private readonly params: RotatingLogFileParams) {
    this.maxBytes = params.maxFileBytes ?? DEFAULT_MAX_LOG_FILE_BYTES;
    this.open(resolveLogFilePath({ ...params, now: params.now() }));
  }

  /** The file being written now. */
  get currentPath(): string {
    return this.path;
  }

  /** Appends one line (must end with a newline). */
  write(line: string): void {
    const wanted = resolveLogFilePath({ ...this.params, now: this.params.now() });
    if (wanted !== this.path) this.open(wanted);
    const size = Buffer.byteLength(line);
    if (this.bytes > 0 && this.bytes + size > this.maxBytes) this.rotate();
    writeSync(this.fd as number, line);
    this.bytes += size;
  }

  /** Closes the file; later writes reopen it. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.path = "";
  }

  private open(path: string): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    prepareLogDir(dirname(path));
    this.fd = openLogFileForAppend(path);
    this.path = path;
    this.bytes = fstatSync(this.fd).size;
  }

  private rotate(): void {
    const path = this.path;
    this.close();
    for (let n = MAX_LOG_ARCHIVES - 1; n >= 1; n--) {
      if (existsSync(archivePath(path, n)))
        renameSync(archivePath(path, n), archivePath(path, n + 1));
    }
    renameSync(path, archivePath(path, 1));
    this.open(path);
  }
}
