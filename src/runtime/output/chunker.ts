// Block chunking for channels that stream replies as separate messages: feed text deltas, get completed
// blocks of `minChars`..`maxChars` cut at paragraph / sentence / line breaks, never inside a code fence
// (a fence longer than `maxChars` is closed at the cut and reopened in the next block).
import { type FenceSpan, fenceAt, scanFences } from "./fences.js";

/** Preferred place to end a block. */
export type BlockBreak = "paragraph" | "sentence" | "newline";

/** Options of {@link createBlockChunker}. */
export interface BlockChunkerOptions {
  /** A block is not emitted before it has this many characters (unless the stream ends). */
  minChars: number;
  /** Hard limit per block (at least 16). */
  maxChars: number;
  breakOn: BlockBreak;
}

/** A streaming chunker: `push` returns the blocks completed by the delta; `flush` the rest at the end. */
export interface BlockChunker {
  push(delta: string): string[];
  flush(): string[];
  /** Characters buffered but not yet emitted. */
  readonly buffered: number;
}

/** OpenClaw's block-streaming defaults. */
export const DEFAULT_BLOCK_CHUNKING: Readonly<BlockChunkerOptions> = Object.freeze({
  minChars: 800,
  maxChars: 1200,
  breakOn: "paragraph",
});

type BreakKind = BlockBreak | "space";

const PATTERNS: Record<BreakKind, RegExp> = {
  paragraph: /\n[ \t]*\n/g,
  newline: /\n/g,
  sentence: /[.!?…]["')\]]*(?=\s)/g,
  space: /\s/g,
};

const ACCEPTS: Record<BlockBreak, BreakKind[]> = {
  paragraph: ["paragraph"],
  newline: ["newline"],
  sentence: ["sentence", "newline"],
};

const FALLBACK: BreakKind[] = ["paragraph", "newline", "sentence", "space"];

interface Cut {
  at: number;
  kind: BreakKind;
}

/** Where a match of `kind` ends the block: before the newline(s), after sentence punctuation. */
function cutIndex(kind: BreakKind, match: RegExpExecArray): number {
  return kind === "sentence" ? match.index + match[0].length : match.index;
}

function lastCut(params: {
  text: string;
  kind: BreakKind;
  from: number;
  to: number;
  fences: readonly FenceSpan[];
}): Cut | undefined {
  const pattern = new RegExp(PATTERNS[params.kind].source, "g");
  let best: Cut | undefined;
  for (let match = pattern.exec(params.text); match; match = pattern.exec(params.text)) {
    const at = cutIndex(params.kind, match);
    if (at > params.to) break;
    if (at >= params.from && at > 0 && !fenceAt(params.fences, at))
      best = { at, kind: params.kind };
  }
  return best;
}

function safeHardCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}

/**
 * Creates a block chunker. Blocks are trimmed at the end; concatenated they give back the text except
 * for the whitespace at cuts and the fence lines added when a code block had to be split.
 */
export function createBlockChunker(options: BlockChunkerOptions): BlockChunker {
  const maxChars = Math.max(16, Math.floor(options.maxChars));
  const minChars = Math.min(Math.max(0, Math.floor(options.minChars)), maxChars);
  const preferred = ACCEPTS[options.breakOn];
  let buffer = "";

  /** Emits `chunk` (blank lead lines and trailing whitespace trimmed) and keeps `rest` buffered. */
  const take = (out: string[], chunk: string, rest: string): void => {
    const block = chunk.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
    if (block !== "") out.push(block);
    buffer = rest;
  };

  const cutAt = (out: string[], cut: Cut): void => {
    let rest = buffer.slice(cut.at);
    if (cut.kind === "sentence" || cut.kind === "space") rest = rest.replace(/^[ \t]+/, "");
    take(out, buffer.slice(0, cut.at), rest.replace(/^(?:[ \t]*\n)+/, ""));
  };

  /** Closes an oversized fence in this block and reopens it in the next; false if that cannot progress. */
  const splitInFence = (out: string[], fence: FenceSpan): boolean => {
    const closer = `\n${fence.marker}`;
    const limit = maxChars - closer.length;
    const newline = buffer.lastIndexOf("\n", limit);
    const atLine = newline > fence.openerEnd;
    const at = atLine ? newline : safeHardCut(buffer, limit);
    if (at <= fence.openerEnd + 1) return false;
    const rest = buffer.slice(atLine ? at + 1 : at);
    take(out, buffer.slice(0, at) + closer, `${fence.opener}\n${rest}`);
    return true;
  };

  const findCut = (params: { fences: FenceSpan[]; kinds: BreakKind[]; from: number }) => {
    const to = Math.min(buffer.length, maxChars);
    for (const kind of params.kinds) {
      const cut = lastCut({ text: buffer, kind, from: params.from, to, fences: params.fences });
      if (cut) return cut;
    }
    return undefined;
  };

  /** Cuts one block off the buffer if one is complete (or the buffer is over the limit). */
  const next = (out: string[]): boolean => {
    const oversized = buffer.length > maxChars;
    if (!oversized && (buffer.length === 0 || buffer.length < minChars)) return false;
    const fences = scanFences(buffer);
    const from = Math.max(minChars, 1);
    const cut =
      findCut({ fences, kinds: preferred, from }) ??
      (oversized ? findCut({ fences, kinds: FALLBACK, from }) : undefined) ??
      (oversized ? findCut({ fences, kinds: FALLBACK, from: 1 }) : undefined);
    if (cut) {
      cutAt(out, cut);
      return true;
    }
    if (!oversized) return false;
    const fence = fenceAt(fences, maxChars);
    if (fence && splitInFence(out, fence)) return true;
    const at = safeHardCut(buffer, maxChars);
    take(out, buffer.slice(0, at), buffer.slice(at));
    return true;
  };

  return {
    push(delta) {
      buffer += delta;
      const out: string[] = [];
      while (next(out)) {
        // keep cutting while complete blocks remain
      }
      return out;
    },
    flush() {
      const out: string[] = [];
      while (buffer.length > maxChars && next(out)) {
        // split what exceeds the limit
      }
      take(out, buffer, "");
      return out;
    },
    get buffered() {
      return buffer.length;
    },
  };
}
