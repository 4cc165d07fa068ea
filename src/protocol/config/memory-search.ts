// `memorySearch` (in `agents.defaults` and each agent entry): the memory_search / memory_get tools.
// Pincer's index is BM25 full-text only; the embedding keys are accepted for OpenClaw and marked.
import { type Static, Type } from "typebox";
import { acceptedForCompat, compatOptional } from "./common.js";

const EMBEDDINGS_NOTE =
  "embeddings are not implemented: Pincer's memory index is BM25 full-text only (issue 19)";

/** A marked open section of the embedding side (provider settings, vector store, ...). */
function embeddingSection(description: string) {
  return compatOptional(
    Type.Record(Type.String(), Type.Unknown(), { description }),
    EMBEDDINGS_NOTE,
  );
}

/** Chunking of memory files: OpenClaw's token target and overlap (a token counts as 4 characters). */
const MemoryChunkingSchema = Type.Object(
  {
    tokens: Type.Optional(
      Type.Integer({ minimum: 1, description: "Chunk size target in tokens (default 400)." }),
    ),
    overlap: Type.Optional(
      Type.Integer({ minimum: 0, description: "Tokens repeated between chunks (default 80)." }),
    ),
  },
  { additionalProperties: true, description: "How memory files are cut into chunks." },
);

/** Query defaults of memory_search; `hybrid` (vector + text mixing) needs embeddings. */
const MemoryQuerySchema = Type.Object(
  {
    maxResults: Type.Optional(
      Type.Integer({ minimum: 1, description: "Results returned by default (default 6)." }),
    ),
    minScore: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: "Lowest score returned by default (0..1; default 0: every match).",
      }),
    ),
    hybrid: embeddingSection("Vector + BM25 mixing (weights, candidate pool, MMR, decay)."),
  },
  { additionalProperties: true, description: "memory_search defaults." },
);

/** `memorySearch`: whether the memory tools exist, what they index and their defaults. */
export const MemorySearchConfigSchema = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({ description: "memory_search / memory_get for this agent (default true)." }),
    ),
    extraPaths: Type.Optional(
      Type.Array(Type.String(), {
        description: "More Markdown to index: folders (scanned for *.md) or .md files.",
      }),
    ),
    chunking: Type.Optional(MemoryChunkingSchema),
    query: Type.Optional(MemoryQuerySchema),
    sources: compatOptional(
      Type.Array(Type.String(), { description: 'What to index: "memory", "sessions".' }),
      "issue 19: only memory files are indexed (no session transcripts)",
    ),
    provider: compatOptional(Type.String({ description: "Embedding provider." }), EMBEDDINGS_NOTE),
    model: compatOptional(Type.String({ description: "Embedding model." }), EMBEDDINGS_NOTE),
    fallback: compatOptional(
      Type.String({ description: "Embedding provider used when the first fails." }),
      EMBEDDINGS_NOTE,
    ),
    remote: embeddingSection("Remote embedding endpoint (baseUrl, apiKey, headers, batch)."),
    local: embeddingSection("Local embedding model (modelPath, modelCacheDir)."),
    store: embeddingSection("SQLite index store (path, vector extension)."),
    cache: embeddingSection("Embedding cache."),
    experimental: embeddingSection("Experimental memory settings (sessionMemory)."),
    sync: Type.Optional(
      acceptedForCompat(
        Type.Record(Type.String(), Type.Unknown(), { description: "Index refresh settings." }),
        "issue 19: Pincer checks file stamps on every search instead (no watcher, no interval)",
      ),
    ),
  },
  { additionalProperties: true, description: "Memory search (memory_search / memory_get)." },
);

/** Static type of {@link MemorySearchConfigSchema}. */
export type MemorySearchConfig = Static<typeof MemorySearchConfigSchema>;
