// Crash-safe file replacement: write a temp file beside the target, fsync it, rename it over the
// target, then fsync the directory so the rename itself survives a power loss.
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import * as fsp from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fsyncDirSync } from "./durable-io.js";

/** Options for {@link writeFileAtomic}; `mode` defaults to 0o600 because callers often write secrets. */
export interface AtomicWriteOptions {
  mode?: number;
}

/** Default permission bits: owner read/write only. */
const DEFAULT_ATOMIC_MODE = 0o600;

function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}

/** Follows a symlinked target so the link survives; a missing file is written where named. */
function resolveTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    if (isErrno(err, "ENOENT")) return path;
    throw err;
  }
}

function tempPathFor(target: string): string {
  // pid separates processes; the random part separates writes within one. (Not node:crypto:
  // loading it costs the CLI several milliseconds of start-up.)
  const suffix = `${process.pid}.${Math.random().toString(36).slice(2, 12)}`;
  return join(dirname(target), `.${basename(target)}.${suffix}.tmp`);
}

/** Atomically replaces `path` with `data` (creating parent dirs); readers never see a partial file. */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const mode = options.mode ?? DEFAULT_ATOMIC_MODE;
  const target = resolveTarget(path);
  // New parent dirs are private like the files (state dirs hold credentials and conversations).
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(target);
  try {
    const fd = openSync(temp, "wx", mode);
    try {
      fchmodSync(fd, mode);
      const buffer = typeof data === "string" ? Buffer.from(data, "utf8") : data;
      let written = 0;
      while (written < buffer.length) {
        written += writeSync(fd, buffer, written, buffer.length - written);
      }
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  fsyncDirSync(dirname(target));
}

async function fsyncDirAsync(dir: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await fsp.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Async twin of {@link writeFileAtomic} for callers on the event loop's hot path. */
export async function writeFileAtomicAsync(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? DEFAULT_ATOMIC_MODE;
  const target = await fsp.realpath(path).catch((err: unknown) => {
    if (isErrno(err, "ENOENT")) return path;
    throw err;
  });
  await fsp.mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const temp = tempPathFor(target);
  try {
    const handle = await fsp.open(temp, "wx", mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, target);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
  await fsyncDirAsync(dirname(target));
}
