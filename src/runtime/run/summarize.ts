// The compaction summarizer: one plain model call (no tools) over the serialized conversation.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type Api, type AssistantMessage, type Model, streamSimple } from "@mariozechner/pi-ai";
import { buildSummaryPrompt, SUMMARY_SYSTEM_PROMPT, type Summarizer } from "../compaction/index.js";

/** A Summarizer that asks `model` for the summary; an error or empty answer becomes a thrown error. */
export function summarizeWith(params: {
  model: Model<Api>;
  apiKey: string;
  streamFn?: StreamFn;
  /** The user's own instructions for this summary (`/compact <instructions>`). */
  instructions?: string;
}): Summarizer {
  return async (messages, signal) => {
    const stream = params.streamFn ?? streamSimple;
    const context = {
      systemPrompt: SUMMARY_SYSTEM_PROMPT,
      messages: [
        {
          role: "user" as const,
          content: buildSummaryPrompt(messages, params.instructions),
          timestamp: Date.now(),
        },
      ],
    };
    const events = await stream(params.model, context, { apiKey: params.apiKey, signal });
    const reply: AssistantMessage = await events.result();
    if (reply.stopReason === "error" || reply.stopReason === "aborted") {
      throw new Error(`summary failed: ${reply.errorMessage ?? reply.stopReason}`);
    }
    return reply.content
      .filter((part): part is { type: "text"; text: string } => part.type === "text")
      .map((part) => part.text)
      .join("")
      .trim();
  };
}
