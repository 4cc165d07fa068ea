// `memorySearch` (in `agents.defaults` and each agent entry): the memory_search / memory_get tools.
// The index is BM25, mixed with a remote embedding model's vectors when `provider` is set (OpenAI-
// compatible `/embeddings`). What Pincer has no counterpart for is accepted for OpenClaw and marked:
// local models, the SQLite vector store, the embedding cache, a fallback provider, MMR and decay.
import { type Static, Type } from "typebox";
import { acceptedForCompat, compatOptional, SecretRefSchema } from "./common.js";

/** A marked open section (something Pincer does its own way or has no counterpart for). */
function markedSection(description: string, note: string) {
  return compatOptional(Type.Record(Type.String(), Type.Unknown(), { description }), note);
}

/** `memorySearch.remote`: the endpoint of an OpenAI-compatible embedding API. */
const MemoryRemoteSchema = Type.Object(
  {
    baseUrl: Type.Optional(
      Type.String({ description: "API base URL (`<baseUrl>/embeddings` is called)." }),
    ),
    apiKey: Type.Optional(
      Type.Union([Type.String(), SecretRefSchema], {
        description: "API key (else models.providers.<provider>.apiKey, else its env variable).",
      }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: "Extra request headers." }),
    ),
    batch: markedSection(
      "Batch API settings.",
      "no batch API: chunks are embedded in requests of 64 as the index syncs",
    ),
  },
  { additionalProperties: true, description: "Remote embedding endpoint." },
);

/** `memorySearch.query.hybrid`: how vector and text scores mix. */
const MemoryHybridSchema = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description: "Mix vector and text scores (default true; false: vectors only).",
      }),
    ),
    vectorWeight: Type.Optional(
      Type.Number({ minimum: 0, description: "Weight of vector similarity (default 0.7)." }),
    ),
    textWeight: Type.Optional(
      Type.Number({ minimum: 0, description: "Weight of BM25 relevance (default 0.3)." }),
    ),
    candidateMultiplier: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "Candidates per side: maxResults × this (default 4).",
      }),
    ),
    mmr: markedSection("Diversity re-ranking.", "no MMR re-ranking: results are ranked by score"),
    temporalDecay: markedSection("Age decay.", "no age decay: older notes score as newer ones"),
  },
  { additionalProperties: true, description: "Vector + BM25 mixing." },
);

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
    hybrid: Type.Optional(MemoryHybridSchema),
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
    provider: Type.Optional(
      Type.String({
        description:
          "Embedding provider: openai, gemini, voyage, mistral, another name with remote.baseUrl, or auto (the first with a key); unset: full-text only.",
      }),
    ),
    model: Type.Optional(
      Type.String({ description: "Embedding model (default: the provider's)." }),
    ),
    fallback: compatOptional(
      Type.String({ description: "Embedding provider used when the first fails." }),
      "one model per index: while the provider fails, search is full-text (and says so)",
    ),
    remote: Type.Optional(MemoryRemoteSchema),
    local: markedSection(
      "Local embedding model (modelPath, modelCacheDir).",
      "no local embedding runtime (node-llama-cpp): use a remote provider",
    ),
    store: markedSection(
      "SQLite index store (path, vector extension).",
      "the index (vectors included) is <stateDir>/memory/<agentId>.json",
    ),
    cache: markedSection(
      "Embedding cache.",
      "vectors are kept with their chunks in the index and re-made only for changed chunks",
    ),
    experimental: markedSection(
      "Experimental memory settings (sessionMemory).",
      "issue 19: session transcripts are not indexed",
    ),
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
