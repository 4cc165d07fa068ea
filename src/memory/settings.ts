// An agent's effective `memorySearch`: its entry's keys over `agents.defaults.memorySearch`
// (extraPaths of both, merged), with OpenClaw's defaults for what neither sets. The embedding keys
// (`provider`, `model`, `remote`) are taken whole from the agent when it sets a provider, else
// from the defaults; `query.hybrid` key by key.
import { findAgent, type ResolvedConfig } from "../config/index.js";
import type { MemorySearchConfig } from "../protocol/config/index.js";
import { type ChunkingOptions, DEFAULT_CHUNKING } from "./chunk.js";
import { type EmbeddingSettings, resolveEmbeddingSettings } from "./embeddings.js";
import { DEFAULT_HYBRID, type HybridSettings } from "./vectors.js";

/** Results memory_search returns when neither the call nor `query.maxResults` says (OpenClaw's 6). */
export const DEFAULT_MAX_RESULTS = 6;
/** Lowest score returned by default: 0, every match. OpenClaw's 0.35 is tuned for embeddings. */
export const DEFAULT_MIN_SCORE = 0;

/** What the memory tools and `pincer memory` act on. */
export interface MemorySearchSettings {
  enabled: boolean;
  /** Trimmed, de-duplicated, defaults' first. */
  extraPaths: string[];
  chunking: ChunkingOptions;
  maxResults: number;
  minScore: number;
  /** The embedding model; absent, search is full-text only. */
  embeddings?: EmbeddingSettings;
  hybrid: HybridSettings;
}

function weight(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function hybridOf(
  own: Record<string, unknown> | undefined,
  shared: Record<string, unknown> | undefined,
): HybridSettings {
  const pick = (key: string) => own?.[key] ?? shared?.[key];
  return {
    enabled: pick("enabled") !== false,
    vectorWeight: weight(pick("vectorWeight"), DEFAULT_HYBRID.vectorWeight),
    textWeight: weight(pick("textWeight"), DEFAULT_HYBRID.textWeight),
    candidateMultiplier: positiveInt(
      pick("candidateMultiplier"),
      DEFAULT_HYBRID.candidateMultiplier,
    ),
  };
}

function positiveInt(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : fallback;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === "string")
    : [];
}

/** The effective settings of `agentId` (an unknown agent gets the defaults' settings). */
export function resolveMemorySearchSettings(
  cfg: ResolvedConfig,
  agentId: string,
  env: Record<string, string | undefined>,
): MemorySearchSettings {
  const shared: MemorySearchConfig | undefined = cfg.defaults.memorySearch;
  const own: MemorySearchConfig | undefined = findAgent(cfg, agentId)?.entry.memorySearch;
  const enabled = own?.enabled ?? shared?.enabled ?? true;
  const paths = [...stringList(shared?.extraPaths), ...stringList(own?.extraPaths)]
    .map((path) => path.trim())
    .filter((path) => path !== "");
  const tokens = positiveInt(
    own?.chunking?.tokens ?? shared?.chunking?.tokens,
    DEFAULT_CHUNKING.tokens,
  );
  const overlapRaw = own?.chunking?.overlap ?? shared?.chunking?.overlap;
  const overlap =
    typeof overlapRaw === "number" && Number.isFinite(overlapRaw)
      ? clamp(Math.floor(overlapRaw), 0, tokens - 1)
      : Math.min(DEFAULT_CHUNKING.overlap, tokens - 1);
  const minScoreRaw = own?.query?.minScore ?? shared?.query?.minScore;
  const embeddingSource = own?.provider !== undefined ? own : shared;
  const embeddings = embeddingSource
    ? resolveEmbeddingSettings({ search: embeddingSource, cfg, env })
    : undefined;
  const hybrid = hybridOf(
    own?.query?.hybrid as Record<string, unknown> | undefined,
    shared?.query?.hybrid as Record<string, unknown> | undefined,
  );
  return {
    enabled: enabled !== false,
    extraPaths: [...new Set(paths)],
    chunking: { tokens, overlap },
    maxResults: positiveInt(
      own?.query?.maxResults ?? shared?.query?.maxResults,
      DEFAULT_MAX_RESULTS,
    ),
    minScore:
      typeof minScoreRaw === "number" && Number.isFinite(minScoreRaw)
        ? clamp(minScoreRaw, 0, 1)
        : DEFAULT_MIN_SCORE,
    ...(embeddings ? { embeddings } : {}),
    hybrid,
  };
}
