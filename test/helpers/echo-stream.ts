// A model transport (pi-agent-core StreamFn) that answers every turn with "echo: <last user
// message>", so a test can tell which prompt produced which reply even when runs interleave.
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessage, createAssistantMessageEventStream } from "@mariozechner/pi-ai";

function lastUserText(messages: ReadonlyArray<{ role: string; content: unknown }>): string {
  const last = [...messages].reverse().find((message) => message.role === "user");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return (last.content as Array<{ type: string; text?: string }>)
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

/** The echo transport. */
export const echoStream: StreamFn = (model, context) => {
  const stream = createAssistantMessageEventStream();
  const text = `echo: ${lastUserText(context.messages as Array<{ role: string; content: unknown }>)}`;
  const message: AssistantMessage = {
    role: "assistant",
    content: [{ type: "text", text }],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: Date.now(),
  };
  queueMicrotask(() => {
    stream.push({ type: "start", partial: { ...message, content: [] } });
    stream.push({ type: "text_start", contentIndex: 0, partial: { ...message, content: [] } });
    stream.push({ type: "text_delta", contentIndex: 0, delta: text, partial: message });
    stream.push({ type: "text_end", contentIndex: 0, content: text, partial: message });
    stream.push({ type: "done", reason: "stop", message });
    stream.end(message);
  });
  return stream;
};
