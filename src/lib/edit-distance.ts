// Edit distance and "did you mean" suggestions for typo-tolerant error messages.

/** Damerau-Levenshtein distance (optimal string alignment): insert, delete, substitute, swap neighbours. */
export function damerauLevenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i][0] = i;
  }
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/** Largest distance still treated as a typo for a word of this length. */
export function typoThreshold(length: number): number {
  if (length <= 3) return 1;
  if (length <= 6) return 2;
  return 3;
}

/** The candidate closest to `word` (case-insensitive) within the typo threshold, or undefined. */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const needle = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = damerauLevenshtein(needle, candidate.toLowerCase());
    // A "match" must keep something of both words: one-letter swaps are not suggestions.
    const plausible = distance < Math.max(word.length, candidate.length);
    if (plausible && distance <= typoThreshold(word.length) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
