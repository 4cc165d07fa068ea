// What the model sees of a session: the current branch after its latest compaction (summary first, then
// the kept entries and everything after), and in-memory pruning of old tool results.
import {
  type CompactionEntry,
  isMessageEntry,
  type TranscriptEntry,
  type TranscriptMessage,
} from "../../sessions/index.js";
import { messageChars } from "./tokens.js";

/** Text before a compaction summary in the model context (pi-coding-agent's wording). */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
/** Text after a compaction summary. */
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";

/** Default text that replaces a pruned tool result. */
export const PRUNED_TOOL_RESULT_PLACEHOLDER = "[Old tool result content cleared]";

function timestampOf(entry: TranscriptEntry): number {
  const ms = Date.parse(entry.timestamp);
  return Number.isFinite(ms) ? ms : 0;
}

/** The user message a compaction summary becomes. */
export function compactionSummaryMessage(summary: string, timestamp = 0): TranscriptMessage {
  return {
    role: "user",
    content: [
      { type: "text", text: COMPACTION_SUMMARY_PREFIX + summary + COMPACTION_SUMMARY_SUFFIX },
    ],
    timestamp,
  };
}

/** The model-visible message of an entry (messages, custom messages, branch summaries), else undefined. */
export function entryToMessage(entry: TranscriptEntry): TranscriptMessage | undefined {
  if (isMessageEntry(entry)) return entry.message;
  const e = entry as Record<string, unknown>;
  if (
    entry.type === "custom_message" &&
    (typeof e.content === "string" || Array.isArray(e.content))
  ) {
    return { role: "user", content: e.content, timestamp: timestampOf(entry) };
  }
  if (entry.type === "branch_summary" && typeof e.summary === "string") {
    const text = BRANCH_SUMMARY_PREFIX + e.summary + COMPACTION_SUMMARY_SUFFIX;
    return { role: "user", content: [{ type: "text", text }], timestamp: timestampOf(entry) };
  }
  return undefined;
}

/** True for a `compaction` entry with the fields pi-coding-agent writes. */
export function isCompactionEntry(entry: TranscriptEntry): entry is CompactionEntry {
  const e = entry as Record<string, unknown>;
  return (
    entry.type === "compaction" &&
    typeof e.summary === "string" &&
    typeof e.firstKeptEntryId === "string"
  );
}

/** The live part of a branch: the latest compaction (if any) and the entries the model still sees. */
export interface LiveBranch {
  compaction?: CompactionEntry;
  /** Context entries from the first kept one to the leaf, compaction entries excluded. */
  entries: TranscriptEntry[];
}

/** Splits a branch at its latest compaction: entries before `firstKeptEntryId` are summarized away. */
export function liveBranch(entries: readonly TranscriptEntry[]): LiveBranch {
  let index = -1;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (isCompactionEntry(entries[i])) {
      index = i;
      break;
    }
  }
  const visible = (entry: TranscriptEntry) => entryToMessage(entry) !== undefined;
  if (index < 0) return { entries: entries.filter(visible) };
  const compaction = entries[index] as CompactionEntry;
  const kept = entries.findIndex((entry) => entry.id === compaction.firstKeptEntryId);
  const start = kept >= 0 && kept < index ? kept : index + 1;
  return { compaction, entries: entries.slice(start).filter(visible) };
}

/**
 * The messages the model sees for a branch (root → leaf): the latest compaction's summary as a user
 * message, then the kept entries and everything after the compaction, in order.
 */
export function buildContextFromBranch(entries: readonly TranscriptEntry[]): TranscriptMessage[] {
  const live = liveBranch(entries);
  const messages = live.entries.map((entry) => entryToMessage(entry)!);
  if (!live.compaction) return messages;
  const summary = compactionSummaryMessage(live.compaction.summary, timestampOf(live.compaction));
  return [summary, ...messages];
}

/** Options of {@link pruneToolResults}. */
export interface PruneToolResultsOptions {
  /** Turns (counted from the last user message back) whose tool results stay intact. */
  keepLastTurns: number;
  placeholder?: string;
}

/**
 * Replaces the content of tool results older than the last `keepLastTurns` turns with a placeholder.
 * Returns a new array; the input messages (and the transcript) are never modified.
 */
export function pruneToolResults(
  messages: readonly TranscriptMessage[],
  options: PruneToolResultsOptions,
): TranscriptMessage[] {
  const placeholder = options.placeholder ?? PRUNED_TOOL_RESULT_PLACEHOLDER;
  const keep = Math.max(0, Math.floor(options.keepLastTurns));
  let boundary = messages.length;
  if (keep > 0) {
    let seen = 0;
    boundary = 0;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i].role === "user" && ++seen === keep) {
        boundary = i;
        break;
      }
    }
  }
  return messages.map((message, index) => {
    if (index >= boundary || message.role !== "toolResult") return message;
    if (messageChars(message) <= placeholder.length) return message;
    return { ...message, content: [{ type: "text", text: placeholder }] };
  });
}
