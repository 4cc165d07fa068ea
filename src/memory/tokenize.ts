// Words of a text for the full-text index: Unicode letters, digits and `_`, lowercased, accents
// folded (so "canción" matches "cancion"). The same function cuts chunks and queries.

const WORD = /[\p{L}\p{N}_]+/gu;
const MARKS = /\p{M}+/gu;

/** The index terms of `text`, in order (repeats kept: they are the term frequencies). */
export function tokenize(text: string): string[] {
  const folded = text.normalize("NFKD").replace(MARKS, "").toLowerCase();
  return folded.match(WORD) ?? [];
}
