// The safety net under the core's chunker: splits Markdown so each piece still fits Telegram's limit
// after rendering. Cuts at line breaks, else at spaces, else anywhere (never inside a surrogate pair);
// a code fence cut in two is closed at the end of one piece and reopened at the start of the next.

/** Inputs for {@link splitMarkdownToFit}. */
export interface SplitMarkdownParams {
  markdown: string;
  /** Longest rendered piece allowed. */
  limit: number;
  /** How a piece is measured (the HTML renderer, or identity for plain text). */
  render: (markdown: string) => string;
}

const FENCE = /^```/;

function fits(params: SplitMarkdownParams, text: string): boolean {
  return params.render(text).length <= params.limit;
}

/** Longest prefix length of `text` that fits, preferring to end at whitespace. */
function fittingPrefixLength(text: string, measure: (prefix: string) => boolean): number {
  let low = 1;
  let high = text.length;
  let best = 0;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (measure(text.slice(0, mid))) {
      best = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  if (best === 0) best = 1;
  // The last space inside the fitting prefix (one right after it would make the piece too long).
  const space = text.lastIndexOf(" ", best - 1);
  if (space > best / 2 && best < text.length) best = space + 1;
  // Never leave half of a surrogate pair at the end of a piece.
  const last = text.charCodeAt(best - 1);
  if (best < text.length && last >= 0xd800 && last <= 0xdbff && best > 1) best -= 1;
  return best;
}

/** Splits one over-long line into pieces that fit once wrapped by `wrap`. */
function splitLine(line: string, wrap: (text: string) => string, params: SplitMarkdownParams) {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > 0) {
    if (fits(params, wrap(rest))) {
      pieces.push(rest);
      break;
    }
    const cut = fittingPrefixLength(rest, (prefix) => fits(params, wrap(prefix)));
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return pieces;
}

/** Splits Markdown into pieces whose rendering is at most `limit` long; short text comes back whole. */
export function splitMarkdownToFit(params: SplitMarkdownParams): string[] {
  if (fits(params, params.markdown)) return [params.markdown];
  const pieces: string[] = [];
  let current: string[] = [];
  let openFence: string | undefined;
  const withFence = (lines: string[], fence: string | undefined) =>
    fence === undefined ? lines.join("\n") : `${lines.join("\n")}\n\`\`\``;
  const flush = () => {
    if (current.length === 0 || (current.length === 1 && current[0] === openFence)) return;
    pieces.push(withFence(current, openFence));
    current = openFence === undefined ? [] : [openFence];
  };
  for (const line of params.markdown.split("\n")) {
    const fenceAfter = FENCE.test(line) ? (openFence === undefined ? line : undefined) : openFence;
    if (fits(params, withFence([...current, line], fenceAfter))) {
      current.push(line);
      openFence = fenceAfter;
      continue;
    }
    flush();
    if (fits(params, withFence([...current, line], fenceAfter))) {
      current.push(line);
      openFence = fenceAfter;
      continue;
    }
    // The line alone is too long: cut it, keeping any open fence around each part.
    const prefix = [...current];
    const parts = splitLine(line, (part) => withFence([...prefix, part], openFence), params);
    for (const part of parts) {
      current = [...prefix, part];
      flush();
    }
    openFence = fenceAfter;
    current = openFence === undefined ? [] : [openFence];
  }
  const onlyFence = current.length === 1 && current[0] === openFence;
  if (current.length > 0 && !onlyFence) pieces.push(withFence(current, openFence));
  return pieces.filter((piece) => piece.trim() !== "");
}
