// Memory search: the agent's Markdown memory (MEMORY.md, memory/**/*.md, extra paths) in a BM25
// index (mixed with embeddings when a provider is set) kept current by file stamps, and confined
// line reads. Other areas import from here only.
export {
  type MemoryAccess,
  type MemoryAccessParams,
  memoryAccessFor,
  memoryRefusal,
} from "./access.js";
export { BM25_B, BM25_K1, Bm25Index, bm25Idf, bm25Relevance } from "./bm25.js";
export {
  type ChunkingOptions,
  chunkMarkdown,
  DEFAULT_CHUNKING,
  type MemoryChunk,
} from "./chunk.js";
export {
  EMBEDDING_PROVIDERS,
  type EmbeddingSettings,
  embeddingIndexParams,
  type MemoryEmbedder,
} from "./embeddings.js";
export { listMemoryFiles, type MemoryFile, type MemoryFileList } from "./files.js";
export {
  MemoryIndex,
  type MemoryIndexParams,
  type MemorySearchMode,
  type MemorySearchOptions,
  type MemorySearchResult,
  type MemorySyncReport,
  SNIPPET_MAX_CHARS,
} from "./memory-index.js";
export { type MemorySlice, type MemorySliceResult, readMemorySlice } from "./read.js";
export { MemoryIndexes } from "./registry.js";
export {
  DEFAULT_MAX_RESULTS,
  DEFAULT_MIN_SCORE,
  type MemorySearchSettings,
  resolveMemorySearchSettings,
} from "./settings.js";
export { memoryStorePath } from "./store.js";
export { tokenize } from "./tokenize.js";
