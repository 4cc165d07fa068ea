// Long replies split to a platform's message limit: at paragraph boundaries first (then lines,
// sentences, spaces), never inside a code block without closing and reopening its fence.
import { createBlockChunker } from "../../runtime/output/index.js";

/** Splits `text` into messages of at most `maxLength` characters (one message when it fits). */
export function chunkReplyText(text: string, maxLength: number): string[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (trimmed.length <= maxLength) return [trimmed];
  // minChars = maxChars: a block is cut only when the buffer is over the limit, at the last
  // paragraph (or weaker) break before it, so chunks are as full as the boundaries allow.
  const chunker = createBlockChunker({
    minChars: maxLength,
    maxChars: maxLength,
    breakOn: "paragraph",
  });
  return [...chunker.push(trimmed), ...chunker.flush()];
}
