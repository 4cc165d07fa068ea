// Cutting a Markdown file into chunks with line ranges: a heading starts a new chunk, and a chunk
// that would outgrow its size target is cut at a line boundary, repeating its last lines (the
// overlap) at the start of the next. Sizes are OpenClaw's (400 tokens, 80 overlap; 4 chars a token).

/** Chunk size target and overlap, in tokens (`memorySearch.chunking`). */
export interface ChunkingOptions {
  tokens: number;
  overlap: number;
}

/** OpenClaw's defaults: ~400 tokens a chunk, 80 repeated. */
export const DEFAULT_CHUNKING: Readonly<ChunkingOptions> = Object.freeze({
  tokens: 400,
  overlap: 80,
});

/** Characters one token stands for when sizing chunks (no tokenizer is loaded for this). */
export const CHARS_PER_TOKEN = 4;

/** One chunk: 1-based first and last line (inclusive) and the text of those lines. */
export interface MemoryChunk {
  startLine: number;
  endLine: number;
  text: string;
}

interface Line {
  no: number;
  text: string;
}

const HEADING = /^ {0,3}#{1,6}(?:\s|$)/;

function isBlank(line: Line): boolean {
  return line.text.trim() === "";
}

/** The chunk of `lines` without blank lines at either end; undefined when all are blank. */
function toChunk(lines: Line[]): MemoryChunk | undefined {
  let first = 0;
  let last = lines.length - 1;
  while (first <= last && isBlank(lines[first])) first++;
  while (last >= first && isBlank(lines[last])) last--;
  if (first > last) return undefined;
  const kept = lines.slice(first, last + 1);
  return {
    startLine: kept[0].no,
    endLine: kept[kept.length - 1].no,
    text: kept.map((line) => line.text).join("\n"),
  };
}

/** The last lines of `lines` that fit in `chars`, always fewer than all of them. */
function overlapTail(lines: Line[], chars: number): Line[] {
  const tail: Line[] = [];
  let used = 0;
  for (let i = lines.length - 1; i > 0; i--) {
    used += lines[i].text.length + 1;
    if (used > chars) break;
    tail.unshift(lines[i]);
  }
  return tail;
}

/** Splits `text` into chunks (see the file comment); blank-only stretches make no chunk. */
export function chunkMarkdown(
  text: string,
  options: ChunkingOptions = DEFAULT_CHUNKING,
): MemoryChunk[] {
  const maxChars = Math.max(1, options.tokens) * CHARS_PER_TOKEN;
  const overlapChars = Math.min(Math.max(0, options.overlap) * CHARS_PER_TOKEN, maxChars - 1);
  const raw = text.split("\n");
  if (raw.length > 0 && raw[raw.length - 1] === "") raw.pop();
  const chunks: MemoryChunk[] = [];
  let current: Line[] = [];
  let chars = 0;
  const flush = (next: Line[]) => {
    const chunk = toChunk(current);
    if (chunk) chunks.push(chunk);
    current = next;
    chars = next.reduce((sum, line) => sum + line.text.length + 1, 0);
  };
  raw.forEach((rawLine, index) => {
    const line = { no: index + 1, text: rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine };
    const hasText = current.some((held) => !isBlank(held));
    if (HEADING.test(line.text) && hasText) flush([]);
    else if (hasText && chars + line.text.length + 1 > maxChars)
      flush(overlapTail(current, overlapChars));
    current.push(line);
    chars += line.text.length + 1;
  });
  flush([]);
  return chunks;
}
