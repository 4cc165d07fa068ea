// A small in-memory BM25 index (Okapi BM25, k1 = 1.2, b = 0.75, Lucene's non-negative idf):
// documents are added and removed by id, so one changed file costs only its own chunks.

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25 length normalization. */
export const BM25_B = 0.75;

/** One scored document. */
export interface Bm25Hit {
  docId: number;
  score: number;
}

/** Lucene's idf: ln(1 + (N - n + 0.5) / (n + 0.5)), never negative. */
export function bm25Idf(docCount: number, docFreq: number): number {
  return Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
}

/** A raw BM25 score mapped into 0..1 (s / (1 + s)): what `minScore` compares against. */
export function bm25Relevance(score: number): number {
  return score > 0 ? score / (1 + score) : 0;
}

/** Inverted index: term → (document → term frequency), plus document lengths. */
export class Bm25Index {
  private readonly postings = new Map<string, Map<number, number>>();
  private readonly docs = new Map<number, { length: number; terms: string[] }>();
  private totalLength = 0;

  /** Number of indexed documents. */
  get size(): number {
    return this.docs.size;
  }

  /** Indexes `tokens` as document `docId` (replacing an earlier document of that id). */
  add(docId: number, tokens: readonly string[]): void {
    if (this.docs.has(docId)) this.remove(docId);
    const counts = new Map<string, number>();
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = new Map();
        this.postings.set(term, posting);
      }
      posting.set(docId, tf);
    }
    this.docs.set(docId, { length: tokens.length, terms: [...counts.keys()] });
    this.totalLength += tokens.length;
  }

  /** Drops document `docId`; unknown ids are ignored. */
  remove(docId: number): void {
    const doc = this.docs.get(docId);
    if (!doc) return;
    for (const term of doc.terms) {
      const posting = this.postings.get(term);
      posting?.delete(docId);
      if (posting?.size === 0) this.postings.delete(term);
    }
    this.docs.delete(docId);
    this.totalLength -= doc.length;
  }

  /** Every document matching at least one query term, best first (ties: lower id first). */
  search(queryTokens: readonly string[]): Bm25Hit[] {
    const count = this.docs.size;
    if (count === 0) return [];
    const avgLength = this.totalLength / count || 1;
    const scores = new Map<number, number>();
    for (const term of new Set(queryTokens)) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = bm25Idf(count, posting.size);
      for (const [docId, tf] of posting) {
        const length = this.docs.get(docId)?.length ?? 0;
        const norm = tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength);
        scores.set(docId, (scores.get(docId) ?? 0) + (idf * (tf * (BM25_K1 + 1))) / norm);
      }
    }
    return [...scores]
      .map(([docId, score]) => ({ docId, score }))
      .sort((a, b) => b.score - a.score || a.docId - b.docId);
  }
}
