// Fenced code blocks (``` or ~~~) in Markdown text, found line by line; used so chunking never splits
// inside a code block (or closes and reopens the fence when it must).

/** One fenced block: `start` is the opener line's index, `end` the index after the closer line (-1 if open). */
export interface FenceSpan {
  start: number;
  /** Index just after the opener line's text (before its newline). */
  openerEnd: number;
  end: number;
  /** The opener line without trailing whitespace, e.g. "```ts". */
  opener: string;
  /** The bare marker, e.g. "```" or "~~~~", used to close the block. */
  marker: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** All fenced blocks in `text`, in order; the last may be unclosed (`end === -1`). */
export function scanFences(text: string): FenceSpan[] {
  const spans: FenceSpan[] = [];
  let open: Omit<FenceSpan, "end"> | undefined;
  let pos = 0;
  while (pos <= text.length) {
    const newline = text.indexOf("\n", pos);
    const lineEnd = newline < 0 ? text.length : newline;
    const match = FENCE.exec(text.slice(pos, lineEnd));
    if (match) {
      const [, marker, info] = match;
      if (!open) {
        // A backtick fence's info string cannot contain backticks (CommonMark); that is inline code.
        if (!(marker[0] === "`" && info.includes("`"))) {
          const opener = text.slice(pos, lineEnd).trimEnd();
          open = { start: pos, openerEnd: lineEnd, opener, marker };
        }
      } else if (
        marker[0] === open.marker[0] &&
        marker.length >= open.marker.length &&
        info.trim() === ""
      ) {
        spans.push({ ...open, end: lineEnd });
        open = undefined;
      }
    }
    if (newline < 0) break;
    pos = newline + 1;
  }
  if (open) spans.push({ ...open, end: -1 });
  return spans;
}

/** The fence that a cut at `index` would fall inside (strictly after its start, before its end). */
export function fenceAt(spans: readonly FenceSpan[], index: number): FenceSpan | undefined {
  return spans.find((span) => index > span.start && (span.end < 0 || index < span.end));
}
