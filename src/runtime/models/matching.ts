// "Did you mean" for model and provider names: the nearest few candidates by edit distance,
// plus names that contain (or are contained in) the word, e.g. a dated id for an undated one.
import { damerauLevenshtein, typoThreshold } from "../../lib/edit-distance.js";

/** How many suggestions a "did you mean" offers at most. */
export const MAX_SUGGESTIONS = 3;

/** Up to three candidates close to `word` (case-insensitive), nearest first. */
export function closeMatches(word: string, candidates: readonly string[]): string[] {
  const needle = word.toLowerCase();
  const scored: Array<{ candidate: string; distance: number }> = [];
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    if (candidate === word) continue;
    const distance = damerauLevenshtein(needle, lower);
    const related = needle.length >= 3 && (lower.includes(needle) || needle.includes(lower));
    const budget = Math.max(typoThreshold(word.length), Math.floor(word.length * 0.25));
    if (distance <= budget || related) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, MAX_SUGGESTIONS).map((item) => item.candidate);
}
