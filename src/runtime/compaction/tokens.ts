// Token estimates for context budgeting: chars/4 (pi-coding-agent's heuristic; pi-ai exports no
// estimator), with images counted as a flat 1200 tokens. Deliberately conservative, never exact.
import { tokensForChars } from "../../lib/token-estimate.js";
import type { TranscriptMessage } from "../../sessions/index.js";

/** Characters an image block is counted as (≈1200 tokens). */
export const IMAGE_CHARS = 4800;

/** Estimated tokens of a plain string (chars/4, rounded up). */
export function estimateTokens(text: string): number {
  return tokensForChars(text.length);
}

function blockChars(block: unknown): number {
  if (typeof block === "string") return block.length;
  if (typeof block !== "object" || block === null) return 0;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? b.text.length : 0;
    case "thinking":
      return typeof b.thinking === "string" ? b.thinking.length : 0;
    case "toolCall":
      return String(b.name ?? "").length + JSON.stringify(b.arguments ?? {}).length;
    case "image":
      return IMAGE_CHARS;
    default:
      return 0;
  }
}

/** Characters of a message's model-visible content (text, thinking, tool calls, images, bash output). */
export function messageChars(message: TranscriptMessage): number {
  const content = message.content;
  let chars = 0;
  if (typeof content === "string") chars += content.length;
  else if (Array.isArray(content)) for (const block of content) chars += blockChars(block);
  if (message.role === "bashExecution") {
    chars += String(message.command ?? "").length + String(message.output ?? "").length;
  }
  return chars;
}

/** Estimated tokens of one message. */
export function estimateMessageTokens(message: TranscriptMessage): number {
  return tokensForChars(messageChars(message));
}
