// A small Markdown parser for the assistant's replies: fenced code, headings, lists (nested by
// indentation), quotes, rules and paragraphs; inline code, emphasis, strikethrough, links and bare
// URLs. It yields a tree of plain data (no HTML): raw HTML in the source stays text, and a link
// whose target is not http(s)/mailto stays the literal source text. markdown-dom.ts builds the nodes.

/** An inline piece of a block. */
export type MdInline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "break" }
  | { type: "strong" | "em" | "del"; children: MdInline[] }
  | { type: "link"; href: string; children: MdInline[] };

/** A block of a message. */
export type MdBlock =
  | { type: "paragraph"; children: MdInline[] }
  | { type: "heading"; level: number; children: MdInline[] }
  | { type: "code"; lang: string; text: string }
  | { type: "list"; ordered: boolean; start: number; items: MdBlock[][] }
  | { type: "quote"; blocks: MdBlock[] }
  | { type: "rule" };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(\s+|$)(.*)$/;
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
/** Nesting deeper than this (quotes in lists in quotes…) is shown as plain text. */
const MAX_DEPTH = 12;

function isSpaceOrControl(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code <= 0x20 || code === 0x7f || /\s/.test(char);
}

/** The link target if it is an absolute http(s) or mailto URL, else undefined (never rendered). */
export function safeHref(raw: string): string | undefined {
  const target = raw.trim();
  // Control characters and spaces can hide a scheme from a naive check: refuse them outright.
  if (target === "" || [...target].some(isSpaceOrControl)) return undefined;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    // Relative or malformed: not a link we render.
    return undefined;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
}

/** Parses a message into blocks. */
export function parseMarkdown(source: string): MdBlock[] {
  return parseBlocks(source.replace(/\r\n?/g, "\n").split("\n"), 0);
}

function isBlank(line: string): boolean {
  return line.trim() === "";
}

function indentOf(line: string): number {
  return (/^ */.exec(line.replace(/\t/g, "    "))?.[0] ?? "").length;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

function parseBlocks(lines: string[], depth: number): MdBlock[] {
  if (depth > MAX_DEPTH) return [{ type: "paragraph", children: parseInline(lines.join("\n")) }];
  const blocks: MdBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] ?? "```";
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const closing = (lines[i] ?? "").trim();
        if (closing.startsWith(marker) && /^([`~])\1*$/.test(closing)) break;
        body.push(lines[i] ?? "");
        i++;
      }
      i++;
      blocks.push({ type: "code", lang: fence[2] ?? "", text: body.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = (heading[1] ?? "#").length;
      blocks.push({ type: "heading", level, children: parseInline(heading[2] ?? "") });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: "rule" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? "")) {
        inner.push(QUOTE.exec(lines[i] ?? "")?.[1] ?? "");
        i++;
      }
      blocks.push({ type: "quote", blocks: parseBlocks(inner, depth + 1) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      i = parseList({ lines, from: i, depth, blocks });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && !isBlank(lines[i] ?? "") && !startsBlock(lines[i] ?? "")) {
      if (RULE.test(lines[i] ?? "") && paragraph.length > 0) break;
      paragraph.push((lines[i] ?? "").trim());
      i++;
    }
    blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
  }
  return blocks;
}

/** Reads one list starting at `from` into `blocks`; returns the index of the first line after it. */
function parseList(params: { lines: string[]; from: number; depth: number; blocks: MdBlock[] }) {
  const { lines, depth } = params;
  const first = LIST_ITEM.exec(lines[params.from] ?? "");
  const ordered = /\d/.test(first?.[2] ?? "");
  const start = ordered ? Number.parseInt(first?.[2] ?? "1", 10) : 1;
  const items: string[][] = [];
  let contentIndent = 0;
  let i = params.from;
  while (i < lines.length) {
    const line = lines[i] ?? "";
    const item = LIST_ITEM.exec(line);
    if (item && indentOf(line) < Math.max(contentIndent, 1) + (items.length ? 0 : 4)) {
      if (/\d/.test(item[2] ?? "") !== ordered) break;
      contentIndent = (item[1] ?? "").length + (item[2] ?? "").length + 1;
      items.push([item[4] ?? ""]);
      i++;
      continue;
    }
    const current = items[items.length - 1];
    if (!current) break;
    if (isBlank(line)) {
      const next = lines.slice(i + 1).find((later) => !isBlank(later));
      if (next === undefined || (indentOf(next) < contentIndent && !LIST_ITEM.test(next))) break;
      current.push("");
      i++;
      continue;
    }
    if (indentOf(line) >= Math.min(contentIndent, 2)) {
      current.push(line.replace(/\t/g, "    ").slice(Math.min(indentOf(line), contentIndent)));
    } else if (!isBlank(current[current.length - 1] ?? "") && !startsBlock(line)) {
      current.push(line.trim());
    } else {
      break;
    }
    i++;
  }
  params.blocks.push({
    type: "list",
    ordered,
    start,
    items: items.map((item) => parseBlocks(item, depth + 1)),
  });
  return i;
}

/** Parses inline Markdown (a paragraph's or heading's text). */
export function parseInline(text: string): MdInline[] {
  return new InlineParser(text).parse(0);
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;

class InlineParser {
  private pos = 0;
  private readonly out: MdInline[] = [];

  constructor(private readonly src: string) {}

  parse(depth: number): MdInline[] {
    let text = "";
    const flush = () => {
      if (text !== "") this.out.push({ type: "text", text });
      text = "";
    };
    const src = this.src;
    while (this.pos < src.length) {
      const piece = depth > MAX_DEPTH ? undefined : this.special(depth);
      if (piece) {
        flush();
        this.out.push(piece);
        continue;
      }
      const char = src[this.pos] ?? "";
      if (char === "\\" && PUNCTUATION.test(src[this.pos + 1] ?? "")) {
        text += src[this.pos + 1];
        this.pos += 2;
      } else {
        text += char;
        this.pos++;
      }
    }
    flush();
    return this.out;
  }

  /** The construct starting at the cursor, consumed, or undefined (the char is plain text). */
  private special(depth: number): MdInline | undefined {
    const src = this.src;
    const at = this.pos;
    const char = src[at];
    if (char === "\n") {
      this.pos++;
      return { type: "break" };
    }
    if (char === "`") {
      const ticks = /^`+/.exec(src.slice(at))?.[0] ?? "`";
      const end = src.indexOf(ticks, at + ticks.length);
      if (end < 0) return undefined;
      let code = src.slice(at + ticks.length, end).replace(/\n/g, " ");
      if (/^ .* $/.test(code)) code = code.slice(1, -1);
      this.pos = end + ticks.length;
      return { type: "code", text: code };
    }
    if (char === "[") return this.link(depth);
    if (char === "h" && /^https?:\/\//.test(src.slice(at, at + 8))) return this.bareUrl();
    if (char === "*" || char === "_" || char === "~") return this.emphasis(depth);
    return undefined;
  }

  private link(depth: number): MdInline | undefined {
    const src = this.src;
    const close = matching(src, this.pos, "[", "]");
    if (close < 0 || src[close + 1] !== "(") return undefined;
    const end = matching(src, close + 1, "(", ")");
    if (end < 0) return undefined;
    const href = safeHref(src.slice(close + 2, end).replace(/\s+"[^"]*"\s*$/, ""));
    if (href === undefined) return undefined;
    const children = new InlineParser(src.slice(this.pos + 1, close)).parse(depth + 1);
    this.pos = end + 1;
    return { type: "link", href, children };
  }

  private bareUrl(): MdInline | undefined {
    const src = this.src;
    if (this.pos > 0 && /\w/.test(src[this.pos - 1] ?? "")) return undefined;
    const raw = /^[^\s<>"]+/.exec(src.slice(this.pos))?.[0] ?? "";
    const trimmed = raw.replace(/[.,;:!?)\]'*_~]+$/, "");
    const href = safeHref(trimmed);
    if (href === undefined) return undefined;
    this.pos += trimmed.length;
    return { type: "link", href, children: [{ type: "text", text: trimmed }] };
  }

  private emphasis(depth: number): MdInline | undefined {
    const src = this.src;
    const at = this.pos;
    const char = src[at] ?? "";
    const run = (new RegExp(`^\\${char}+`).exec(src.slice(at))?.[0] ?? "").length;
    if (char === "~" && run !== 2) return undefined;
    const size = char === "~" ? 2 : Math.min(run, 2);
    const delimiter = char.repeat(size);
    const after = src[at + size] ?? "";
    if (after === "" || /\s/.test(after)) return undefined;
    if (char === "_" && at > 0 && /\w/.test(src[at - 1] ?? "")) return undefined;
    let end = src.indexOf(delimiter, at + size + 1);
    while (end >= 0) {
      const before = src[end - 1] ?? "";
      const next = src[end + size] ?? "";
      const wordAfter = char === "_" && /\w/.test(next);
      if (!/\s/.test(before) && !wordAfter && next !== char) break;
      end = src.indexOf(delimiter, end + 1);
    }
    if (end < 0) return undefined;
    const children = new InlineParser(src.slice(at + size, end)).parse(depth + 1);
    this.pos = end + size;
    const type = char === "~" ? "del" : size === 2 ? "strong" : "em";
    return { type, children };
  }
}

/** The index of the bracket closing the one at `open` (nesting counted), or -1. */
function matching(src: string, open: number, left: string, right: string): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const char = src[i];
    if (char === "\\") i++;
    else if (char === left) depth++;
    else if (char === right && --depth === 0) return i;
    else if (char === "\n" && src[i + 1] === "\n") return -1;
  }
  return -1;
}
