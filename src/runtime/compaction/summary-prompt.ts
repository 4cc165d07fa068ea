// The request a summarizer sends to the model: the compacted messages as a plain transcript (so tool
// calls need no tool schemas) plus instructions for a summary the conversation can continue from.
import type { TranscriptMessage } from "../../sessions/index.js";

/** System prompt of a summarization request. */
export const SUMMARY_SYSTEM_PROMPT =
  "You summarize conversations between a user and an AI assistant so the assistant can continue them. " +
  "Output only the summary.";

/** Instructions that follow the serialized conversation. */
export const SUMMARY_INSTRUCTIONS = [
  "Summarize the conversation above so the assistant can continue it without the original messages.",
  "Keep: the user's goals and constraints, decisions made, facts learned, files and commands involved,",
  "work done and its results, open questions and the next steps. If it starts with an earlier summary,",
  "merge that summary in. Be concise; use short Markdown sections and bullet points.",
].join("\n");

const MAX_TOOL_OUTPUT_CHARS = 2000;

function blockText(block: unknown): string {
  if (typeof block === "string") return block;
  if (typeof block !== "object" || block === null) return "";
  const b = block as Record<string, unknown>;
  if (b.type === "text" && typeof b.text === "string") return b.text;
  if (b.type === "toolCall")
    return `[tool call] ${String(b.name)}(${JSON.stringify(b.arguments ?? {})})`;
  if (b.type === "image") return "[image]";
  return "";
}

function contentText(message: TranscriptMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(blockText).filter(Boolean).join("\n");
  return "";
}

function clip(text: string, max: number): string {
  return text.length > max
    ? `${text.slice(0, max)}\n[… ${text.length - max} more characters]`
    : text;
}

/** The messages as a plain transcript (`[User]`, `[Assistant]`, `[Tool result: name]`), tool output clipped. */
export function serializeConversation(messages: readonly TranscriptMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    const text = contentText(message);
    switch (message.role) {
      case "user":
        parts.push(`[User]\n${text}`);
        break;
      case "assistant":
        if (text) parts.push(`[Assistant]\n${text}`);
        break;
      case "toolResult": {
        const label = `${String(message.toolName ?? "tool")}${message.isError ? ", error" : ""}`;
        parts.push(`[Tool result: ${label}]\n${clip(text, MAX_TOOL_OUTPUT_CHARS)}`);
        break;
      }
      case "bashExecution":
        parts.push(
          `[Command] ${String(message.command ?? "")}\n${clip(String(message.output ?? ""), MAX_TOOL_OUTPUT_CHARS)}`,
        );
        break;
      default:
        if (text) parts.push(`[${message.role}]\n${text}`);
    }
  }
  return parts.join("\n\n");
}

/** The user prompt of a summarization request for `messages`. */
export function buildSummaryPrompt(
  messages: readonly TranscriptMessage[],
  instructions?: string,
): string {
  const extra = instructions?.trim()
    ? `\n\nAlso follow these instructions from the user for this summary:\n${instructions.trim()}`
    : "";
  return `<conversation>\n${serializeConversation(messages)}\n</conversation>\n\n${SUMMARY_INSTRUCTIONS}${extra}`;
}
