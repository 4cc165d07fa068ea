// Markdown as the model writes it → Signal text plus `textStyle` ranges (`start:length:STYLE`,
// UTF-16 units, as signal-cli takes them): **bold** / __bold__ and headings BOLD, *italic* /
// _italic_ ITALIC, ~~strike~~ STRIKETHROUGH, `code` and fenced blocks MONOSPACE, ||spoiler||
// SPOILER; links become `text (url)`. Only a marker with a closing partner is styled; anything
// else stays as written (plain text is never lost), and `\*` escapes a marker.

/** The styles signal-cli knows. */
export type SignalStyle = "BOLD" | "ITALIC" | "STRIKETHROUGH" | "MONOSPACE" | "SPOILER";

/** One styled range of the text. */
export interface StyleRange {
  start: number;
  length: number;
  style: SignalStyle;
}

/** Rendered text and its ranges. */
export interface StyledText {
  text: string;
  styles: StyleRange[];
}

const PAIRS: ReadonlyArray<[string, SignalStyle]> = [
  ["**", "BOLD"],
  ["__", "BOLD"],
  ["~~", "STRIKETHROUGH"],
  ["||", "SPOILER"],
  ["*", "ITALIC"],
  ["_", "ITALIC"],
];

const WORD = /[\p{L}\p{N}]/u;

/** Where the closing `marker` of an opening at `from` is, or -1 (content non-empty, not blank-edged). */
function closing(src: string, marker: string, from: number): number {
  const open = from + marker.length;
  if (open >= src.length || /\s/.test(src[open]!)) return -1;
  let i = open + 1;
  for (;;) {
    i = src.indexOf(marker, i);
    if (i < 0) return -1;
    const newlineBetween = src.slice(open, i).includes("\n\n");
    if (newlineBetween) return -1;
    if (!/\s/.test(src[i - 1]!) && !(marker === "_" && WORD.test(src[i + 1] ?? ""))) return i;
    i += 1;
  }
}

function append(out: StyledText, part: StyledText, style?: SignalStyle): void {
  const base = out.text.length;
  out.text += part.text;
  for (const range of part.styles) out.styles.push({ ...range, start: range.start + base });
  if (style && part.text.length > 0)
    out.styles.push({ start: base, length: part.text.length, style });
}

function plain(text: string): StyledText {
  return { text, styles: [] };
}

function inline(src: string): StyledText {
  const out: StyledText = { text: "", styles: [] };
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "\\" && i + 1 < src.length && /[*_~|`[\]\\]/.test(src[i + 1]!)) {
      out.text += src[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const end = src.indexOf("`", i + 1);
      if (end > i + 1) {
        append(out, plain(src.slice(i + 1, end)), "MONOSPACE");
        i = end + 1;
        continue;
      }
    }
    if (ch === "[") {
      const link = /^\[([^\]\n]+)\]\(([^)\s]+)\)/.exec(src.slice(i));
      if (link) {
        const [whole, label, url] = link;
        append(out, inline(label!));
        if (label !== url) out.text += ` (${url})`;
        i += whole.length;
        continue;
      }
    }
    const pair = PAIRS.find(([marker]) => src.startsWith(marker, i));
    if (pair) {
      const [marker, style] = pair;
      // An intraword underscore (snake_case) is not a marker.
      const intraword = marker.startsWith("_") && WORD.test(src[i - 1] ?? "");
      const end = intraword ? -1 : closing(src, marker, i);
      if (end > 0) {
        append(out, inline(src.slice(i + marker.length, end)), style);
        i = end + marker.length;
        continue;
      }
      out.text += marker;
      i += marker.length;
      continue;
    }
    out.text += ch;
    i += 1;
  }
  return out;
}

/** Renders Markdown to Signal text and style ranges. */
export function markdownToSignal(markdown: string): StyledText {
  const out: StyledText = { text: "", styles: [] };
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (index > 0) out.text += "\n";
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      const end = lines.findIndex((l, j) => j > index && l.trim().startsWith(fence[1]!));
      if (end > index) {
        append(out, plain(lines.slice(index + 1, end).join("\n")), "MONOSPACE");
        index = end;
        continue;
      }
    }
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      append(out, inline(heading[1]!), "BOLD");
      continue;
    }
    append(out, inline(line));
  }
  return out;
}

/** signal-cli's `textStyle` strings (`start:length:STYLE`). */
export function textStyleParams(styles: readonly StyleRange[]): string[] {
  return styles.map((range) => `${range.start}:${range.length}:${range.style}`);
}
