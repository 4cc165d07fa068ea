// Public surface of reply output processing: reasoning tags, `<final>`, reply directives, silent replies
// and block chunking for channels that stream. Pure functions and small streaming state machines.
export {
  type BlockBreak,
  type BlockChunker,
  type BlockChunkerOptions,
  createBlockChunker,
  DEFAULT_BLOCK_CHUNKING,
} from "./chunker.js";
export {
  DEFAULT_SILENT_TOKEN,
  isSilentReply,
  isSilentReplyPrefix,
  parseReplyDirectives,
  type ReplyDirectives,
} from "./directives.js";
export {
  type DisplayLevels,
  type DisplaySources,
  type ReasoningLevel,
  resolveDisplayLevels,
  USAGE_MODES,
  type UsageMode,
  usageModeOf,
  type VerboseLevel,
} from "./display-levels.js";
export { type FenceSpan, scanFences } from "./fences.js";
export { reasoningText, toolCallText, toolResultText } from "./progress-text.js";
export { type ProcessedReply, type ProcessReplyOptions, processReply } from "./reply.js";
export {
  createThinkingFilter,
  extractFinal,
  stripThinking,
  type ThinkingFilter,
  type ThinkingFilterOptions,
} from "./thinking.js";
export { formatUsageFooter, type TurnUsage } from "./usage-footer.js";
