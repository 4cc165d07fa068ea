// Reasoning tags in model text: `<think>`/`<thinking>` blocks are removed (an unclosed trailing block
// too) and `<final>` marks the user-facing answer. The streaming filter handles tags split across deltas.

const THINK_NAMES = ["think", "thinking", "thought", "antthinking"];
const TAG_NAMES = [...THINK_NAMES, "final"];
const TAG_AT_START = /^<\s*(\/?)\s*(think|thinking|thought|antthinking|final)\b[^<>]*>/i;
const MAX_PARTIAL_TAG = 64;

/** Options of {@link createThinkingFilter}. */
export interface ThinkingFilterOptions {
  /**
   * `<final>` markers: `strip` (default) removes them and keeps all text; `only` emits just the text
   * inside final blocks (models told to wrap their answer); `keep` leaves them for {@link extractFinal}.
   */
  final?: "strip" | "only" | "keep";
}

/** Streaming filter: `push` each delta, get the visible text so far; `flush` once at the end. */
export interface ThinkingFilter {
  push(delta: string): string;
  flush(): string;
}

type TagMatch = { closing: boolean; name: string; length: number } | "partial" | null;

function matchTag(rest: string): TagMatch {
  const full = TAG_AT_START.exec(rest);
  if (full)
    return { closing: full[1] === "/", name: full[2].toLowerCase(), length: full[0].length };
  if (rest.includes(">") || rest.length > MAX_PARTIAL_TAG) return null;
  const head = /^<\s*\/?\s*([a-z]*)/i.exec(rest)!;
  const name = head[1].toLowerCase();
  const after = rest.slice(head[0].length);
  if (after === "") return TAG_NAMES.some((tag) => tag.startsWith(name)) ? "partial" : null;
  return TAG_NAMES.includes(name) && /^\s[^<>]*$/.test(after) ? "partial" : null;
}

/**
 * Creates a streaming filter that drops reasoning blocks and `<final>` markers. A trailing fragment that
 * may be the start of a tag (`<thi`) is held back until the next delta decides it.
 */
export function createThinkingFilter(options: ThinkingFilterOptions = {}): ThinkingFilter {
  let pending = "";
  let inThink = false;
  let inFinal = false;
  let atStart = true;
  const finalMode = options.final ?? "strip";

  const visible = (text: string): string => {
    if (inThink || (finalMode === "only" && !inFinal) || text === "") return "";
    if (!atStart) return text;
    const trimmed = text.replace(/^\s+/, "");
    if (trimmed !== "") atStart = false;
    return trimmed;
  };

  const apply = (tag: { closing: boolean; name: string }): void => {
    if (THINK_NAMES.includes(tag.name)) inThink = !tag.closing;
    else if (!inThink) inFinal = !tag.closing;
  };

  return {
    push(delta) {
      const text = pending + delta;
      pending = "";
      let out = "";
      let cursor = 0;
      while (cursor < text.length) {
        const lt = text.indexOf("<", cursor);
        if (lt < 0) {
          out += visible(text.slice(cursor));
          break;
        }
        out += visible(text.slice(cursor, lt));
        const tag = matchTag(text.slice(lt));
        if (tag === "partial") {
          pending = text.slice(lt);
          break;
        }
        if (tag === null) {
          out += visible("<");
          cursor = lt + 1;
          continue;
        }
        const tagText = text.slice(lt, lt + tag.length);
        apply(tag);
        if (tag.name === "final" && finalMode === "keep") out += visible(tagText);
        cursor = lt + tag.length;
      }
      return out;
    },
    flush() {
      const out = visible(pending);
      pending = "";
      return out;
    },
  };
}

/** Removes `<think>…</think>`-style blocks (an unclosed trailing one too) and trims; `<final>` stays. */
export function stripThinking(text: string): string {
  const filter = createThinkingFilter({ final: "keep" });
  return (filter.push(text) + filter.flush()).trim();
}

const FINAL_BLOCK = /<\s*final\b[^<>]*>([\s\S]*?)(?:<\s*\/\s*final\s*>|$)/gi;

/** If the text has a `<final>` block, only the content of its final block(s); otherwise the text as is. */
export function extractFinal(text: string): string {
  const blocks = [...text.matchAll(FINAL_BLOCK)];
  if (blocks.length === 0) return text;
  return blocks
    .map((block) => block[1].trim())
    .filter(Boolean)
    .join("\n\n");
}
