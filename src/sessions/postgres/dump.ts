// A session store as moved by `pincer sessions export|import`: per agent, the index entries as their
// exact JSON text and every transcript (live and archived) as its header and entry lines' text, so files
// → PostgreSQL → files gives the same entries and the same lines.

/** One transcript: header and entry texts in order, with ids and tree links. */
export interface TranscriptDump {
  sessionId: string;
  /** The key it belonged to ("" when unknown: an archive read from files). */
  sessionKey: string;
  /** The header line's text. */
  header: string;
  entries: { id: string; parentId: string | null; json: string }[];
  archived: { reason: "reset" | "deleted"; at: number } | null;
  createdAt: number;
  /** The file name it had in a sessions dir (kept so an export writes the same name). */
  fileName: string | null;
}

/** One agent's store. */
export interface AgentDump {
  agentId: string;
  /** Session key → the entry's JSON text. */
  entries: [string, string][];
  transcripts: TranscriptDump[];
}

/** What a copy did (or found in the way). */
export interface TransferCounts {
  agents: number;
  sessions: number;
  transcripts: number;
  entries: number;
  archived: number;
  /** Lines of source transcripts that were not JSON (skipped). */
  skippedLines: number;
}

/** Raised when the destination already holds sessions (or transcripts) and `force` is off. */
export class TransferConflictError extends Error {
  constructor(
    readonly where: string,
    readonly keys: string[],
  ) {
    const shown = keys.slice(0, 5).join(", ");
    super(
      `${where} already has ${keys.length} of these sessions (${shown}${keys.length > 5 ? ", …" : ""}); pass --force to overwrite`,
    );
    this.name = "TransferConflictError";
  }
}

/** Totals of a list of dumps. */
export function countDumps(dumps: readonly AgentDump[], skippedLines = 0): TransferCounts {
  let transcripts = 0;
  let entries = 0;
  let archived = 0;
  let sessions = 0;
  for (const dump of dumps) {
    sessions += dump.entries.length;
    for (const t of dump.transcripts) {
      transcripts += 1;
      entries += t.entries.length;
      if (t.archived) archived += 1;
    }
  }
  return { agents: dumps.length, sessions, transcripts, entries, archived, skippedLines };
}

/** Entry rows of transcript lines (v1 lines without ids get `v1-<line>` chained in order). */
export function linesToEntries(lines: readonly { line: number; text: string }[]): {
  entries: TranscriptDump["entries"];
  skipped: number;
} {
  const entries: TranscriptDump["entries"] = [];
  let skipped = 0;
  for (const { line, text } of lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      skipped += 1; // a torn or corrupt line: the file store skips it as well
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      skipped += 1;
      continue;
    }
    const record = value as Record<string, unknown>;
    const previous = entries.at(-1)?.id ?? null;
    if (typeof record.id === "string") {
      const parentId = typeof record.parentId === "string" ? record.parentId : null;
      entries.push({ id: record.id, parentId, json: text });
    } else entries.push({ id: `v1-${line}`, parentId: previous, json: text });
  }
  return { entries, skipped };
}
