// Where a session's transcript lives: always inside its store's directory. OpenClaw records absolute
// `sessionFile` paths, so a state dir moved to another HOME or machine (or a crafted sessions.json) names
// files elsewhere; those are never read or written as is but looked up by name inside the store dir.
import { existsSync, realpathSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { SessionEntry } from "./types.js";

/** Ids safe to use as file names (OpenClaw's rule). */
const SAFE_SESSION_ID = /^[a-z0-9][a-z0-9._-]{0,127}$/i;

/** Transcript file names accepted from a recorded path's basename (same alphabet, `.jsonl`). */
const SAFE_TRANSCRIPT_NAME = /^[a-z0-9][a-z0-9._-]{0,200}\.jsonl$/i;

/** An absolute POSIX path with nothing to normalize: no `.`/`..` segment, no `//`, no trailing `/`. */
function isPlainAbsolute(path: string): boolean {
  return (
    path.startsWith("/") &&
    !path.includes("//") &&
    !path.includes("/.") &&
    (path.length === 1 || !path.endsWith("/"))
  );
}

/** True when `path` lies inside `dir` (lexically: archiving and pruning never touch files elsewhere). */
export function isInside(dir: string, path: string): boolean {
  // The common case (both already normalized) without resolve()/relative()'s garbage: this runs
  // several times per turn. Anything else (a `..`, a dot file, Windows) takes the full check.
  if (sep === "/" && isPlainAbsolute(dir) && isPlainAbsolute(path)) {
    if (dir === "/") return path.length > 1;
    return path.length > dir.length + 1 && path.startsWith(dir) && path[dir.length] === "/";
  }
  const rel = relative(resolve(dir), resolve(path));
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** Inside `dir` once symlinks are followed (a missing file counts by its lexical path). */
function isReallyInside(dir: string, path: string): boolean {
  if (!isInside(dir, path)) return false;
  if (!existsSync(path)) return true;
  try {
    return isInside(realpathSync(dir), realpathSync(path));
  } catch (err) {
    // A dangling link or a race with a rename: refuse rather than follow it.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/**
 * The transcript file of an entry, always inside `sessionsDir`: the recorded `sessionFile` (relative
 * paths resolve against the dir) when it lies inside and exists; else the file of the same name in the
 * dir, else `<sessionId>.jsonl` there (a state dir moved from another HOME keeps its history). Undefined
 * when no safe name exists (unsafe id, recorded path outside with an unsafe name).
 */
export function resolveTranscriptPath(
  sessionsDir: string,
  entry: Pick<SessionEntry, "sessionId" | "sessionFile">,
): string | undefined {
  const candidates = transcriptCandidates(sessionsDir, entry).filter((file) =>
    isReallyInside(sessionsDir, file),
  );
  return candidates.find((file) => existsSync(file)) ?? candidates[0];
}

/** Where a transcript may be, best first: the recorded path, its name here, the id-based name. */
function transcriptCandidates(
  sessionsDir: string,
  entry: Pick<SessionEntry, "sessionId" | "sessionFile">,
): string[] {
  const byId = SAFE_SESSION_ID.test(entry.sessionId)
    ? join(sessionsDir, `${entry.sessionId}.jsonl`)
    : undefined;
  const recorded =
    typeof entry.sessionFile === "string" && entry.sessionFile.trim() !== ""
      ? resolve(sessionsDir, entry.sessionFile)
      : undefined;
  if (recorded === undefined) return byId ? [byId] : [];
  if (isInside(sessionsDir, recorded)) return byId ? [recorded, byId] : [recorded];
  // Recorded elsewhere (another HOME, or crafted): only its name is used, inside the dir.
  const name = basename(recorded);
  const sameName = SAFE_TRANSCRIPT_NAME.test(name) ? join(sessionsDir, name) : undefined;
  const found = [sameName, byId].filter((file): file is string => file !== undefined);
  // With neither file present, a new transcript takes the id-based name, as a new session would.
  return found.some((file) => existsSync(file)) ? found : found.reverse();
}

/** Whether `sessionFile` names a file outside `sessionsDir` (a lexical check: no file system access). */
export function isRecordedElsewhere(
  sessionsDir: string,
  entry: Pick<SessionEntry, "sessionFile">,
): boolean {
  const recorded = entry.sessionFile;
  if (typeof recorded !== "string" || recorded.trim() === "") return false;
  return !isInside(sessionsDir, resolve(sessionsDir, recorded));
}

/**
 * The first place {@link resolveTranscriptPath} looks, found lexically (no file system access): the
 * recorded path when it lies inside `sessionsDir`, or the id-based name when none is recorded.
 * Undefined when the recorded path lies elsewhere or the id is unsafe (only a full lookup can tell).
 */
export function primaryTranscriptPath(
  sessionsDir: string,
  entry: Pick<SessionEntry, "sessionId" | "sessionFile">,
): string | undefined {
  const recorded = entry.sessionFile;
  if (typeof recorded !== "string" || recorded.trim() === "") {
    return SAFE_SESSION_ID.test(entry.sessionId)
      ? join(sessionsDir, `${entry.sessionId}.jsonl`)
      : undefined;
  }
  const path = resolve(sessionsDir, recorded);
  return isInside(sessionsDir, path) ? path : undefined;
}

/**
 * The `sessionFile` an entry should record: its resolved transcript when the recorded path differs
 * (elsewhere, or missing while the transcript is found under another name); the entry's value otherwise.
 */
export function recordedTranscriptPath(
  sessionsDir: string,
  entry: Pick<SessionEntry, "sessionId" | "sessionFile">,
): string | undefined {
  if (typeof entry.sessionFile !== "string" || entry.sessionFile.trim() === "") {
    return entry.sessionFile;
  }
  return recordedPathFor(sessionsDir, entry, resolveTranscriptPath(sessionsDir, entry));
}

/** {@link recordedTranscriptPath} for an entry whose transcript was already resolved to `resolved`. */
export function recordedPathFor(
  sessionsDir: string,
  entry: Pick<SessionEntry, "sessionFile">,
  resolved: string | undefined,
): string | undefined {
  const recorded = entry.sessionFile;
  if (typeof recorded !== "string" || recorded.trim() === "" || resolved === undefined) {
    return recorded;
  }
  return resolve(sessionsDir, recorded) === resolved ? recorded : resolved;
}
