// Session dumps from and to the legacy file layout: `<sessionsDir>/sessions.json` (an object keyed by
// session key, written as `JSON.stringify(store, null, 2)` like OpenClaw) and the transcripts beside it
// (`<name>.jsonl`, archives `<name>.jsonl.reset|deleted.<ts>`), each line kept as its exact text.
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import { formatArchiveTimestamp, listArchives } from "../archive.js";
import { resolveTranscriptPath } from "../transcript-location.js";
import type { SessionEntry } from "../types.js";
import {
  type AgentDump,
  linesToEntries,
  type TranscriptDump,
  TransferConflictError,
} from "./dump.js";

/** Lines of a transcript file (whole lines with text; the torn tail of a crash included as a line). */
function fileLines(file: string): { line: number; text: string }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((text, index) => ({ line: index + 1, text: text.trim() === "" ? "" : text }))
    .filter((row) => row.text !== "");
}

function isHeaderText(text: string): boolean {
  try {
    const value = JSON.parse(text) as { type?: unknown };
    return typeof value === "object" && value !== null && value.type === "session";
  } catch {
    return false; // not JSON: an entry line the reader counts as skipped
  }
}

function headerId(text: string): string | undefined {
  const value = JSON.parse(text) as { id?: unknown };
  return typeof value.id === "string" ? value.id : undefined;
}

function readTranscriptFile(params: {
  file: string;
  sessionId: string | undefined;
  sessionKey: string;
  archived: TranscriptDump["archived"];
}): { dump: TranscriptDump; skipped: number } | undefined {
  const lines = fileLines(params.file);
  const first = lines[0];
  if (!first || !isHeaderText(first.text)) return undefined;
  const { entries, skipped } = linesToEntries(lines.slice(1));
  const name = basename(params.file);
  const sessionId = headerId(first.text) ?? params.sessionId ?? name.split(".jsonl")[0]!;
  const dump: TranscriptDump = {
    sessionId,
    sessionKey: params.sessionKey,
    header: first.text,
    entries,
    archived: params.archived,
    createdAt: Math.trunc(statSync(params.file).mtimeMs),
    fileName: params.archived ? name.slice(0, name.indexOf(".jsonl") + 6) : name,
  };
  return { dump, skipped };
}

/** Reads one agent's store from its sessions dir (undefined when it has no sessions.json). */
export function readFilesDump(params: {
  agentId: string;
  sessionsDir: string;
}): { dump: AgentDump; skipped: number } | undefined {
  const { sessionsDir } = params;
  const storePath = join(sessionsDir, "sessions.json");
  if (!existsSync(storePath)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(storePath, "utf8"));
  } catch (err) {
    throw new Error(`${storePath} is not JSON (${String(err)}); nothing exported`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${storePath} is not an object of sessions`);
  }
  const dump: AgentDump = { agentId: params.agentId, entries: [], transcripts: [] };
  let skipped = 0;
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(parsed as Record<string, SessionEntry>)) {
    dump.entries.push([key, JSON.stringify(value)]);
    if (typeof value?.sessionId !== "string") continue;
    const file = resolveTranscriptPath(sessionsDir, value);
    if (!file || !existsSync(file) || seen.has(file)) continue;
    seen.add(file);
    const read = readTranscriptFile({
      file,
      sessionId: value.sessionId,
      sessionKey: key,
      archived: null,
    });
    if (!read) continue;
    dump.transcripts.push(read.dump);
    skipped += read.skipped;
  }
  for (const archive of listArchives(sessionsDir)) {
    const read = readTranscriptFile({
      file: archive.path,
      sessionId: undefined,
      sessionKey: "",
      archived: { reason: archive.reason, at: Math.trunc(archive.archivedAt) },
    });
    if (!read) continue;
    dump.transcripts.push(read.dump);
    skipped += read.skipped;
  }
  return { dump, skipped };
}

function safeName(name: string | null, sessionId: string): string {
  if (name && /^[A-Za-z0-9._-]+\.jsonl$/.test(name) && !name.startsWith(".")) return name;
  return `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`;
}

/** The file name a transcript gets in a sessions dir. */
export function transcriptFileName(t: TranscriptDump): string {
  const base = safeName(t.fileName, t.sessionId);
  return t.archived
    ? `${base}.${t.archived.reason}.${formatArchiveTimestamp(t.archived.at)}`
    : base;
}

function transcriptText(t: TranscriptDump): string {
  return [t.header, ...t.entries.map((e) => e.json)].map((line) => `${line}\n`).join("");
}

/** The keys and transcript files already in a sessions dir that a dump would overwrite. */
export function filesConflicts(dump: AgentDump, sessionsDir: string): string[] {
  const storePath = join(sessionsDir, "sessions.json");
  const existing = existsSync(storePath)
    ? (JSON.parse(readFileSync(storePath, "utf8")) as Record<string, unknown>)
    : {};
  const keys = dump.entries.map(([key]) => key).filter((key) => key in existing);
  const files = dump.transcripts
    .map(transcriptFileName)
    .filter((name) => existsSync(join(sessionsDir, name)));
  return [...keys, ...files];
}

/** Writes a dump into a sessions dir (transcripts first, then sessions.json merged, atomically). */
export function writeFilesDump(params: {
  dump: AgentDump;
  sessionsDir: string;
  force: boolean;
}): void {
  const { dump, sessionsDir } = params;
  const conflicts = filesConflicts(dump, sessionsDir);
  if (conflicts.length > 0 && !params.force)
    throw new TransferConflictError(sessionsDir, conflicts);
  mkdirSync(sessionsDir, { recursive: true, mode: 0o700 });
  for (const t of dump.transcripts) {
    writeFileAtomic(join(sessionsDir, transcriptFileName(t)), transcriptText(t), { mode: 0o600 });
  }
  const storePath = join(sessionsDir, "sessions.json");
  const merged = existsSync(storePath)
    ? (JSON.parse(readFileSync(storePath, "utf8")) as Record<string, unknown>)
    : {};
  for (const [key, json] of dump.entries) merged[key] = JSON.parse(json);
  writeFileAtomic(storePath, JSON.stringify(merged, null, 2), { mode: 0o600 });
}
