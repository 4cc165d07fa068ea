// Running a planned compaction: one summarize call, then one `compaction` entry appended. Any failure is
// returned as a value with nothing written, and nothing is retried (the caller allows one attempt).
import type {
  CompactionEntry,
  TranscriptEntry,
  TranscriptEntryInput,
  TranscriptMessage,
} from "../../sessions/index.js";
import type { CompactionPlan } from "./plan.js";

/** Where the compaction entry goes; a `Transcript` from the session store fits. */
export interface CompactionTarget {
  append(input: TranscriptEntryInput): TranscriptEntry | Promise<TranscriptEntry>;
}

/** Summarizes the messages being compacted (usually a model call); must honour `signal`. */
export type Summarizer = (messages: TranscriptMessage[], signal: AbortSignal) => Promise<string>;

/** Parameters of {@link compactHistory}. */
export interface CompactHistoryParams {
  plan: CompactionPlan;
  summarize: Summarizer;
  transcript: CompactionTarget;
  signal?: AbortSignal;
  /** Stored as the entry's `details` (pi-coding-agent keeps file lists there). */
  details?: unknown;
}

/** Why a compaction did not happen. */
export type CompactionErrorCode =
  | "nothing_to_compact"
  | "aborted"
  | "summarize_failed"
  | "empty_summary"
  | "append_failed";

/** A failed compaction: the transcript is untouched (except `append_failed`, where the write failed). */
export interface CompactionError {
  code: CompactionErrorCode;
  message: string;
  cause?: unknown;
}

/** Outcome of {@link compactHistory}. */
export type CompactionResult =
  | { ok: true; entry: CompactionEntry; summary: string; tokensBefore: number }
  | { ok: false; error: CompactionError };

function failure(code: CompactionErrorCode, message: string, cause?: unknown): CompactionResult {
  return { ok: false, error: { code, message, ...(cause === undefined ? {} : { cause }) } };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Summarizes a ready plan once and appends `{ type: "compaction", summary, firstKeptEntryId,
 * tokensBefore }`. A throwing or empty summarizer, or an abort, returns an error and writes nothing.
 */
export async function compactHistory(params: CompactHistoryParams): Promise<CompactionResult> {
  const { plan } = params;
  if (plan.status !== "ready") {
    return failure("nothing_to_compact", `nothing to compact (${plan.reason})`);
  }
  const signal = params.signal ?? new AbortController().signal;
  if (signal.aborted) return failure("aborted", "compaction aborted before it started");
  let summary: string;
  try {
    summary = await params.summarize(plan.messages, signal);
  } catch (error) {
    if (signal.aborted) return failure("aborted", "compaction aborted", error);
    return failure("summarize_failed", `summarizing failed: ${describe(error)}`, error);
  }
  if (signal.aborted) return failure("aborted", "compaction aborted");
  if (typeof summary !== "string" || summary.trim() === "") {
    return failure("empty_summary", "the summarizer returned an empty summary");
  }
  const input: TranscriptEntryInput = {
    type: "compaction",
    summary: summary.trim(),
    firstKeptEntryId: plan.firstKeptEntryId,
    tokensBefore: plan.tokensBefore,
    ...(params.details === undefined ? {} : { details: params.details }),
  };
  try {
    const entry = (await params.transcript.append(input)) as CompactionEntry;
    return { ok: true, entry, summary: input.summary as string, tokensBefore: plan.tokensBefore };
  } catch (error) {
    return failure(
      "append_failed",
      `writing the compaction entry failed: ${describe(error)}`,
      error,
    );
  }
}

/** Counts compaction attempts so an overflow is compacted at most `maxAttempts` times (never a loop). */
export interface CompactionBudget {
  /** True (and counts it) while attempts remain. */
  tryAcquire(): boolean;
  readonly attempts: number;
  readonly maxAttempts: number;
}

/** A budget for one overflow (or one run); default one attempt. */
export function createCompactionBudget(maxAttempts = 1): CompactionBudget {
  let attempts = 0;
  const max = Math.max(0, Math.floor(maxAttempts));
  return {
    tryAcquire() {
      if (attempts >= max) return false;
      attempts += 1;
      return true;
    },
    get attempts() {
      return attempts;
    },
    get maxAttempts() {
      return max;
    },
  };
}
