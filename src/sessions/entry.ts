// Building index entries: a new session on first message, and the entry that replaces a session on reset
// (new id and transcript, counters cleared, routing, delivery and user overrides kept).
import { join } from "node:path";
import type { SessionEntry, SessionInit } from "./types.js";

/** Fields a reset clears: per-transcript state that must not leak into the new session. */
const RESET_CLEARED_FIELDS = [
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "totalTokensFresh",
  "cacheRead",
  "cacheWrite",
  "contextTokens",
  "systemSent",
  "abortedLastRun",
  "memoryFlushAt",
  "memoryFlushCompactionCount",
  "skillsSnapshot",
  "systemPromptReport",
  "lastInteractionAt",
  "lastActivityAt",
  "activeWriterRunId",
  "lastRunId",
] as const;

/** Removes keys whose value is `undefined` (a patch sets a field to undefined to delete it). */
export function withoutUndefined(entry: SessionEntry): SessionEntry {
  for (const key of Object.keys(entry)) if (entry[key] === undefined) delete entry[key];
  return entry;
}

/** Inputs for {@link createSessionEntry}. */
export interface CreateSessionEntryParams {
  sessionId: string;
  sessionsDir: string;
  now: number;
  init?: SessionInit;
}

/** A fresh entry: new id, transcript `<sessionsDir>/<sessionId>.jsonl`, zeroed counters. */
export function createSessionEntry(params: CreateSessionEntryParams): SessionEntry {
  const { sessionId, now } = params;
  return withoutUndefined({
    sessionId,
    updatedAt: now,
    sessionFile: join(params.sessionsDir, `${sessionId}.jsonl`),
    sessionStartedAt: now,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    compactionCount: 0,
    ...params.init,
  });
}

/** The entry after a reset: new id and transcript, counters cleared, everything else kept. */
export function resetSessionEntry(params: {
  previous: SessionEntry;
  sessionId: string;
  sessionsDir: string;
  now: number;
}): SessionEntry {
  const next: SessionEntry = { ...params.previous };
  for (const field of RESET_CLEARED_FIELDS) delete next[field];
  return {
    ...next,
    sessionId: params.sessionId,
    updatedAt: params.now,
    sessionFile: join(params.sessionsDir, `${params.sessionId}.jsonl`),
    sessionStartedAt: params.now,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    compactionCount: 0,
  };
}
