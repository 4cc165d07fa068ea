// Per-workspace snapshots of the bootstrap files, so a turn does not re-read (and fail to open) every
// candidate file. A snapshot is checked on each use with one stat of the workspace folder (a file
// added, removed or renamed changes its mtime) plus one stat of each present file (an in-place edit
// changes its mtime or size); any difference reloads it. Stats are taken before reading, so an edit
// racing a load is seen by the next check. The stats are synchronous on purpose: a stat of a cached
// inode costs microseconds, while an async one waits behind fsyncs in libuv's small thread pool.
import { join, resolve } from "node:path";
import { type FileStamp, readFileStamp, sameFileStamp } from "../lib/file-stamp.js";
import {
  CORE_BOOTSTRAP_FILES,
  type LoadBootstrapParams,
  type LoadBootstrapResult,
  loadBootstrapFiles,
  MEMORY_FILE_NAMES,
} from "./bootstrap.js";
import { BOOTSTRAP_FILENAME } from "./workspace.js";

/** Every file name any mode may inject (the union the snapshot watches). */
const WATCHED_NAMES: readonly string[] = [
  ...CORE_BOOTSTRAP_FILES,
  BOOTSTRAP_FILENAME,
  ...MEMORY_FILE_NAMES,
];

/** A loaded bootstrap result plus whether the workspace folder existed when it was checked. */
export interface BootstrapSnapshot extends LoadBootstrapResult {
  dirPresent: boolean;
}

/** A present watched file and its stamp when the snapshot was taken. */
interface PathStamp extends FileStamp {
  path: string;
}

interface CachedSnapshot {
  dir: FileStamp | undefined;
  files: PathStamp[];
  snapshot: BootstrapSnapshot;
}

/** Bootstrap results per (workspace, mode, caps), revalidated by stat on every use. */
export class BootstrapCache {
  private readonly cached = new Map<string, CachedSnapshot>();
  private readonly inFlight = new Map<string, Promise<BootstrapSnapshot>>();

  /**
   * The bootstrap files for `params`: the cached snapshot when nothing changed on disk, else a fresh
   * load. Loads with hooks are never cached (hooks may depend on anything). Concurrent callers for
   * the same key share one reload.
   */
  async load(params: LoadBootstrapParams): Promise<BootstrapSnapshot> {
    const dir = resolve(params.workspaceDir);
    if (params.hooks) return (await this.fill(dir, params)).snapshot;
    const key = `${params.mode}\0${params.maxChars ?? ""}\0${params.totalMaxChars ?? ""}\0${dir}`;
    const cached = this.cached.get(key);
    if (cached && this.unchanged(dir, cached)) return cached.snapshot;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fill(dir, params)
        .then((entry) => {
          this.cached.set(key, entry);
          return entry.snapshot;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private unchanged(dir: string, cached: CachedSnapshot): boolean {
    if (!sameFileStamp(readFileStamp(dir), cached.dir)) return false;
    for (const file of cached.files)
      if (!sameFileStamp(readFileStamp(file.path), file)) return false;
    return true;
  }

  private async fill(dir: string, params: LoadBootstrapParams): Promise<CachedSnapshot> {
    const dirStamp = readFileStamp(dir);
    const stamps = WATCHED_NAMES.map((name) => {
      const path = join(dir, name);
      const stamp = readFileStamp(path);
      return stamp ? { path, ...stamp } : undefined;
    });
    const loaded = await loadBootstrapFiles({ ...params, workspaceDir: dir });
    return {
      dir: dirStamp,
      files: stamps.filter((stamp): stamp is PathStamp => stamp !== undefined),
      snapshot: { ...loaded, dirPresent: dirStamp !== undefined },
    };
  }
}
