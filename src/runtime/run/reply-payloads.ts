// The deliverable part of a run's last assistant message: its text, directives parsed out (media,
// voice, reply-to), nothing when silent. Shared by finished runs and runs recovered from a transcript.
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { processReply } from "../output/index.js";
import type { ReplyPayload } from "./run-agent.js";

/** The text parts of an assistant message, joined. */
export function assistantText(message: AssistantMessage | undefined): string {
  if (!message) return "";
  return message.content
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text)
    .join("");
}

/** What a reply delivers: one payload, or none when it is silent or empty. */
export function replyPayloads(text: string): ReplyPayload[] {
  const reply = processReply(text);
  if (reply.silent) return [];
  return [
    {
      text: reply.text,
      media: reply.media,
      voice: reply.voice,
      ...(reply.replyTo ? { replyTo: reply.replyTo } : {}),
    },
  ];
}
