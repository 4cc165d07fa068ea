// The vector side of a memory index: one unit vector per chunk (filled in after each sync, for the
// chunks that have none yet), cosine similarity against a query vector, and OpenClaw's hybrid mix
// of the two scores (`query.hybrid`: vectorWeight 0.7, textWeight 0.3, a candidate pool of
// maxResults × candidateMultiplier from each side). An embedding failure leaves chunks without
// vectors and is reported; full-text search keeps working, and the model is not asked again for
// RETRY_AFTER_MS (so a provider that is down does not hold every search up to its timeout).
import type { MemoryEmbedder } from "./embeddings.js";

/** `memorySearch.query.hybrid`, resolved. */
export interface HybridSettings {
  enabled: boolean;
  vectorWeight: number;
  textWeight: number;
  candidateMultiplier: number;
}

/** How long after a failed embedding request the model is left alone. */
export const RETRY_AFTER_MS = 60_000;

/** OpenClaw's defaults. */
export const DEFAULT_HYBRID: HybridSettings = {
  enabled: true,
  vectorWeight: 0.7,
  textWeight: 0.3,
  candidateMultiplier: 4,
};

/** The dot product (the cosine of two unit vectors), 0 when the lengths differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

/** The best `limit` entries of a score map, highest first. */
export function topScores(scores: ReadonlyMap<number, number>, limit: number): Map<number, number> {
  return new Map([...scores].sort((x, y) => y[1] - x[1]).slice(0, Math.max(1, limit)));
}

/**
 * The merged score of each candidate: with hybrid on, the pool is the best `pool` of each side and a
 * candidate scores `(vw·vector + tw·text) / (vw + tw)` (a side it is absent from counts 0); off, the
 * vector score alone. Vector scores below 0 count as 0.
 */
export function mergeScores(params: {
  text: ReadonlyMap<number, number>;
  vector: ReadonlyMap<number, number>;
  hybrid: HybridSettings;
  pool: number;
}): Map<number, number> {
  const { hybrid, pool } = params;
  const vector = topScores(params.vector, pool);
  if (!hybrid.enabled) return new Map([...vector].map(([id, s]) => [id, Math.max(0, s)]));
  const text = topScores(params.text, pool);
  const total = hybrid.vectorWeight + hybrid.textWeight;
  const merged = new Map<number, number>();
  for (const id of new Set([...vector.keys(), ...text.keys()])) {
    const v = Math.max(0, params.vector.get(id) ?? 0);
    const t = params.text.get(id) ?? 0;
    merged.set(id, total > 0 ? (hybrid.vectorWeight * v + hybrid.textWeight * t) / total : 0);
  }
  return merged;
}

/** Chunk vectors of one index, filled by {@link ChunkVectors.fill}. */
export class ChunkVectors {
  private readonly byChunk = new Map<number, number[]>();
  private failure: { at: number; message: string } | undefined;

  constructor(
    private readonly embedder: MemoryEmbedder,
    private readonly now: () => number,
  ) {}

  /** The last failure's message while the model is being left alone, else undefined. */
  backingOff(): string | undefined {
    if (this.failure && this.now() - this.failure.at < RETRY_AFTER_MS) return this.failure.message;
    return undefined;
  }

  /** One text's vector (a query's), or the failure's message. */
  async embedOne(text: string): Promise<{ vector: number[] } | { error: string }> {
    const waiting = this.backingOff();
    if (waiting) return { error: waiting };
    try {
      const [vector] = await this.embedder.embed([text]);
      if (!vector) return { error: "the model returned no vector" };
      this.failure = undefined;
      return { vector };
    } catch (err) {
      this.failure = { at: this.now(), message: (err as Error).message };
      return { error: this.failure.message };
    }
  }

  get size(): number {
    return this.byChunk.size;
  }

  get(id: number): number[] | undefined {
    return this.byChunk.get(id);
  }

  set(id: number, vector: number[]): void {
    this.byChunk.set(id, vector);
  }

  delete(id: number): void {
    this.byChunk.delete(id);
  }

  /** Embeds the chunks (id → text) that have no vector; resolves how many were added, or the
   *  failure's message (those chunks stay without vectors). */
  async fill(chunks: ReadonlyMap<number, string>): Promise<{ added: number; error?: string }> {
    const missing = [...chunks].filter(([id]) => !this.byChunk.has(id));
    if (missing.length === 0) return { added: 0 };
    const waiting = this.backingOff();
    if (waiting) return { added: 0, error: waiting };
    try {
      const vectors = await this.embedder.embed(missing.map(([, text]) => text));
      missing.forEach(([id], i) => {
        const vector = vectors[i];
        if (vector) this.byChunk.set(id, vector);
      });
      this.failure = undefined;
      return { added: missing.length };
    } catch (err) {
      this.failure = { at: this.now(), message: (err as Error).message };
      return { added: 0, error: this.failure.message };
    }
  }

  /** Cosine of every chunk vector against `query`. */
  scores(query: readonly number[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const [id, vector] of this.byChunk) out.set(id, cosine(query, vector));
    return out;
  }
}
