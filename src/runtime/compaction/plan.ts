// Compaction planning: is the live context over `contextWindow - reserveTokens`, and if so which entries
// are summarized and which recent ones (about `keepRecentTokens`, whole turns) are kept verbatim.
import type { CompactionConfig } from "../../protocol/config/index.js";
import type { TranscriptEntry, TranscriptMessage } from "../../sessions/index.js";
import {
  compactionSummaryMessage,
  entryToMessage,
  liveBranch,
  pruneToolResults,
} from "./session-view.js";
import { estimateMessageTokens } from "./tokens.js";

/** Token budgets of compaction. */
export interface CompactionSettings {
  /** Tokens kept free for the reply and the summary; overflow is `context > window - reserve`. */
  reserveTokens: number;
  /** About how many recent tokens are kept verbatim (rounded to whole turns). */
  keepRecentTokens: number;
}

/** pi-coding-agent's defaults. */
export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
  reserveTokens: 16384,
  keepRecentTokens: 20000,
});

/** Settings from `agents.defaults.compaction` (or an agent's), defaults filled in. */
export function resolveCompactionSettings(cfg?: CompactionConfig): CompactionSettings {
  return {
    reserveTokens: cfg?.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens,
    keepRecentTokens: cfg?.keepRecentTokens ?? DEFAULT_COMPACTION_SETTINGS.keepRecentTokens,
  };
}

/** True when `contextTokens` leaves less than `reserveTokens` of the window. */
export function isOverThreshold(params: {
  contextTokens: number;
  contextWindow: number;
  reserveTokens: number;
}): boolean {
  return params.contextTokens > params.contextWindow - params.reserveTokens;
}

/** Parameters of {@link planCompaction}. */
export interface PlanCompactionParams extends CompactionSettings {
  /** The transcript's current branch, root → leaf (`currentBranch(entries)`). */
  entries: readonly TranscriptEntry[];
  contextWindow: number;
  estimate?: (message: TranscriptMessage) => number;
  /** The context size the provider last reported; estimated from the entries when absent. */
  contextTokens?: number;
  /** Manual compaction: plan even when under the threshold. */
  force?: boolean;
}

/** A compaction that can run: what to summarize, where the kept part starts. */
export interface ReadyCompactionPlan {
  status: "ready";
  reason: "overflow" | "manual";
  tokensBefore: number;
  firstKeptEntryId: string;
  /** Entries replaced by the summary. */
  summarized: TranscriptEntry[];
  /** Entries kept verbatim (from `firstKeptEntryId` on). */
  kept: TranscriptEntry[];
  /** What the summarizer receives: the previous summary (if any), then the summarized messages. */
  messages: TranscriptMessage[];
  previousSummary?: string;
  keptTokens: number;
  summaryInputTokens: number;
  /** True when the cut falls inside a turn (at an assistant message; tool calls stay with results). */
  splitTurn: boolean;
}

/** No compaction: under the threshold, or nothing before the kept part to summarize. */
export interface SkippedCompactionPlan {
  status: "skip";
  reason: "under-threshold" | "nothing-to-compact";
  tokensBefore: number;
}

/** Result of {@link planCompaction}. */
export type CompactionPlan = ReadyCompactionPlan | SkippedCompactionPlan;

function role(entry: TranscriptEntry): string | undefined {
  return entry.type === "message" ? entryToMessage(entry)?.role : undefined;
}

/** Index where the kept part starts: whole turns first, a split at an assistant message otherwise. */
function chooseCut(
  entries: TranscriptEntry[],
  target: number,
): { at: number; split: boolean } | undefined {
  const points = (wanted: string) =>
    entries.flatMap((entry, index) => (index > 0 && role(entry) === wanted ? [index] : []));
  for (const [wanted, split] of [
    ["user", false],
    ["assistant", true],
  ] as const) {
    const candidates = points(wanted);
    const atOrBefore = candidates.filter((index) => index <= target).at(-1);
    const after = candidates.find((index) => index > target);
    const at = atOrBefore ?? after;
    if (at !== undefined) return { at, split };
  }
  return undefined;
}

/**
 * Plans a compaction of a branch. The kept part starts at a user message (whole turns) keeping at least
 * `keepRecentTokens` when possible; with a single turn it starts at an assistant message instead. A tool
 * result is never separated from its call. Tool results in the summarizer input are pruned when the input
 * alone would not fit the window.
 */
export function planCompaction(params: PlanCompactionParams): CompactionPlan {
  const estimate = params.estimate ?? estimateMessageTokens;
  const live = liveBranch(params.entries);
  const previousSummary = live.compaction?.summary;
  const summaryMessage =
    previousSummary === undefined ? undefined : compactionSummaryMessage(previousSummary);
  const messages = live.entries.map((entry) => entryToMessage(entry)!);
  const tokens = messages.map(estimate);
  const estimated = tokens.reduce(
    (sum, n) => sum + n,
    summaryMessage ? estimate(summaryMessage) : 0,
  );
  const tokensBefore = params.contextTokens ?? estimated;
  const over = isOverThreshold({
    contextTokens: tokensBefore,
    contextWindow: params.contextWindow,
    reserveTokens: params.reserveTokens,
  });
  if (!over && !params.force) return { status: "skip", reason: "under-threshold", tokensBefore };

  let target = 0;
  let suffix = 0;
  for (let i = tokens.length - 1; i >= 0; i--) {
    suffix += tokens[i];
    if (suffix >= params.keepRecentTokens) {
      target = i;
      break;
    }
  }
  const cut = chooseCut(live.entries, target);
  if (!cut) return { status: "skip", reason: "nothing-to-compact", tokensBefore };

  let input = [...(summaryMessage ? [summaryMessage] : []), ...messages.slice(0, cut.at)];
  let summaryInputTokens = input.reduce((sum, message) => sum + estimate(message), 0);
  if (summaryInputTokens > params.contextWindow - params.reserveTokens) {
    // The summarizer's own request must fit: old tool outputs go first (no compaction death spiral).
    input = pruneToolResults(input, { keepLastTurns: 0 });
    summaryInputTokens = input.reduce((sum, message) => sum + estimate(message), 0);
  }
  return {
    status: "ready",
    reason: over ? "overflow" : "manual",
    tokensBefore,
    firstKeptEntryId: live.entries[cut.at].id,
    summarized: live.entries.slice(0, cut.at),
    kept: live.entries.slice(cut.at),
    messages: input,
    ...(previousSummary === undefined ? {} : { previousSummary }),
    keptTokens: tokens.slice(cut.at).reduce((sum, n) => sum + n, 0),
    summaryInputTokens,
    splitTurn: cut.split,
  };
}
