// auth-profiles.json read once per change instead of once per turn: each use stats the file and
// re-reads it only when its inode, size or mtime moved, so a `models auth add` (or a cooldown
// written by another process) is seen by the very next turn.
import { type FileStamp, readFileStamp, sameFileStamp } from "../../lib/file-stamp.js";
import { type AuthStoreRead, authStorePath, emptyAuthStore, readAuthStore } from "./auth-store.js";

interface CachedRead {
  stamp: FileStamp;
  read: AuthStoreRead;
}

/** Parsed auth stores per agentDir, validated by stat. Returned reads are shared: never mutate them. */
export class AuthStoreCache {
  private readonly reads = new Map<string, CachedRead>();

  /** The agent's store as {@link readAuthStore} would return it now. */
  read(agentDir: string): AuthStoreRead {
    const path = authStorePath(agentDir);
    const stamp = readFileStamp(path);
    if (!stamp) {
      // No file (the usual case with env or config keys): what readAuthStore returns, without the
      // ENOENT it would throw and catch.
      this.reads.delete(agentDir);
      return { path, exists: false, store: emptyAuthStore() };
    }
    const cached = this.reads.get(agentDir);
    if (cached && sameFileStamp(cached.stamp, stamp)) return cached.read;
    const read = readAuthStore(agentDir);
    // Stat taken before the read: a write racing it shows up as a mismatch next time.
    if (!read.error) this.reads.set(agentDir, { stamp, read });
    else this.reads.delete(agentDir);
    return read;
  }
}
