// Public surface of compaction: plan which history to summarize on overflow, write the pi-format
// `compaction` entry (never on failure), rebuild the model context from a branch, prune old tool results.
export {
  type CompactHistoryParams,
  type CompactionBudget,
  type CompactionError,
  type CompactionErrorCode,
  type CompactionResult,
  type CompactionTarget,
  compactHistory,
  createCompactionBudget,
  type Summarizer,
} from "./compact.js";
export {
  type CompactionPlan,
  type CompactionSettings,
  DEFAULT_COMPACTION_SETTINGS,
  isOverThreshold,
  type PlanCompactionParams,
  planCompaction,
  type ReadyCompactionPlan,
  resolveCompactionSettings,
  type SkippedCompactionPlan,
} from "./plan.js";
export {
  buildContextFromBranch,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  compactionSummaryMessage,
  entryToMessage,
  isCompactionEntry,
  type LiveBranch,
  liveBranch,
  PRUNED_TOOL_RESULT_PLACEHOLDER,
  type PruneToolResultsOptions,
  pruneToolResults,
} from "./session-view.js";
export {
  buildSummaryPrompt,
  SUMMARY_INSTRUCTIONS,
  SUMMARY_SYSTEM_PROMPT,
  serializeConversation,
} from "./summary-prompt.js";
export {
  estimateMessageTokens,
  estimateTokens,
  IMAGE_CHARS,
  messageChars,
} from "./tokens.js";
