import { describe, expect, it } from "vitest";
import { Bm25Index, bm25Idf, bm25Relevance } from "./bm25.js";
import { tokenize } from "./tokenize.js";

// Three documents: lengths 2, 3 and 1 (average 2).
function tiny(): Bm25Index {
  const index = new Bm25Index();
  index.add(1, tokenize("alpha beta"));
  index.add(2, tokenize("alpha gamma gamma"));
  index.add(3, tokenize("delta"));
  return index;
}

describe("Bm25Index", () => {
  it("scores exactly as Okapi BM25 with k1 1.2, b 0.75 and Lucene's idf", () => {
    const index = tiny();
    // gamma: n = 1 of N = 3; doc 2 has tf 2, length 3 → norm 2 + 1.2 (0.25 + 0.75·3/2) = 3.65.
    const gamma = index.search(["gamma"]);
    expect(gamma).toHaveLength(1);
    expect(gamma[0].docId).toBe(2);
    expect(gamma[0].score).toBeCloseTo(Math.log(1 + 2.5 / 1.5) * (4.4 / 3.65), 12);
    // alpha: n = 2 → idf ln 1.6; doc 1 (length 2) norm 2.2, doc 2 (length 3) norm 2.65.
    const alpha = index.search(["alpha"]);
    expect(alpha.map((hit) => hit.docId)).toEqual([1, 2]);
    expect(alpha[0].score).toBeCloseTo(Math.log(1.6) * (2.2 / 2.2), 12);
    expect(alpha[1].score).toBeCloseTo(Math.log(1.6) * (2.2 / 2.65), 12);
    expect(bm25Idf(3, 2)).toBeCloseTo(Math.log(1.6), 12);
  });

  it("adds the terms of a multi-word query, once per distinct term", () => {
    const index = tiny();
    const [best] = index.search(["alpha", "gamma", "gamma"]);
    expect(best.docId).toBe(2);
    expect(best.score).toBeCloseTo(
      Math.log(1.6) * (2.2 / 2.65) + Math.log(1 + 2.5 / 1.5) * (4.4 / 3.65),
      12,
    );
    expect(index.search(["nothing"])).toEqual([]);
  });

  it("removing a document drops its terms and changes the statistics", () => {
    const index = tiny();
    index.remove(2);
    expect(index.size).toBe(2);
    expect(index.search(["gamma"])).toEqual([]);
    // alpha now: N = 2, n = 1, average length 1.5; doc 1 length 2 → norm 1 + 1.2 (0.25 + 1).
    const [hit] = index.search(["alpha"]);
    expect(hit.score).toBeCloseTo(Math.log(1 + 1.5 / 1.5) * (2.2 / 2.5), 12);
    index.add(1, tokenize("beta"));
    expect(index.search(["alpha"])).toEqual([]);
  });

  it("maps raw scores into 0..1", () => {
    expect(bm25Relevance(0)).toBe(0);
    expect(bm25Relevance(1)).toBe(0.5);
    expect(bm25Relevance(3)).toBe(0.75);
  });

  it("tokenizes case- and accent-insensitively", () => {
    expect(tokenize("Canción: Ñandú_2 se-fue!")).toEqual(["cancion", "nandu_2", "se", "fue"]);
  });
});
