// Transcript archives, named as OpenClaw names them: `<file>.reset.<ts>` and `<file>.deleted.<ts>`, where
// <ts> is the ISO time with `:` replaced by `-` (safe in file names on every OS).
import { existsSync, readdirSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { isInside } from "./transcript-location.js";

/** Why a transcript was archived. */
export type ArchiveReason = "reset" | "deleted";

/** Formats a time for an archive name: `2026-01-02T03-04-05.678Z`. */
export function formatArchiveTimestamp(now: number): string {
  return new Date(now).toISOString().replaceAll(":", "-");
}

/** Parses the time back out of an archive name; null when the name has none. */
export function parseArchiveTimestamp(fileName: string, reason: ArchiveReason): number | null {
  const marker = `.${reason}.`;
  const index = fileName.lastIndexOf(marker);
  if (index < 0) return null;
  const raw = fileName.slice(index + marker.length);
  const [date, time] = raw.split("T");
  if (!date || !time) return null;
  const ms = Date.parse(`${date}T${time.replace(/-/g, ":")}`);
  return Number.isNaN(ms) ? null : ms;
}

/** Inputs for {@link archiveTranscript}. */
export interface ArchiveTranscriptParams {
  file: string | undefined;
  sessionsDir: string;
  reason: ArchiveReason;
  now: number;
}

/** Outcome of archiving one transcript. */
export type ArchiveOutcome =
  | { status: "archived"; from: string; to: string }
  | { status: "missing" }
  | { status: "outside"; from: string };

/** Renames a transcript to its archive name; files outside the sessions dir are left alone. */
export function archiveTranscript(params: ArchiveTranscriptParams): ArchiveOutcome {
  const { file } = params;
  if (!file || !existsSync(file)) return { status: "missing" };
  if (!isInside(params.sessionsDir, file)) return { status: "outside", from: file };
  const to = `${file}.${params.reason}.${formatArchiveTimestamp(params.now)}`;
  renameSync(file, to);
  return { status: "archived", from: file, to };
}

/** One archived transcript found in a sessions dir. */
export interface ArchiveFile {
  path: string;
  reason: ArchiveReason;
  /** When it was archived: from the name, else the file's mtime. */
  archivedAt: number;
}

/** Lists `*.jsonl.reset.<ts>` and `*.jsonl.deleted.<ts>` files directly inside `sessionsDir`. */
export function listArchives(sessionsDir: string): ArchiveFile[] {
  if (!existsSync(sessionsDir)) return [];
  const found: ArchiveFile[] = [];
  for (const name of readdirSync(sessionsDir)) {
    const reason: ArchiveReason | undefined = name.includes(".jsonl.deleted.")
      ? "deleted"
      : name.includes(".jsonl.reset.")
        ? "reset"
        : undefined;
    if (!reason) continue;
    const path = join(sessionsDir, name);
    const archivedAt = parseArchiveTimestamp(name, reason) ?? statSync(path).mtimeMs;
    found.push({ path, reason, archivedAt });
  }
  return found;
}
