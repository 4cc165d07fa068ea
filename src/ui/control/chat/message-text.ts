// What the Chat page reads off a transcript message as chat.history and `chat` events carry it
// (pi-ai message shapes: content is a string or a list of typed blocks): the text blocks, the tool
// calls of an assistant turn, a tool result, the time, and how a failed turn ended.

/** A message as WebChat reads it; every field is optional because it comes off the wire. */
export interface WireMessage {
  role?: unknown;
  content?: unknown;
  /** pi-ai's end of an assistant turn: "error" and "aborted" mark a failed run. */
  stopReason?: unknown;
  errorMessage?: unknown;
  /** Epoch ms of the message. */
  timestamp?: unknown;
  /** A `toolResult` message's call id, tool name and outcome. */
  toolCallId?: unknown;
  toolName?: unknown;
  isError?: unknown;
}

/** One tool call of an assistant turn. */
export interface ToolCallPart {
  id: string;
  name: string;
  args: unknown;
}

/** A `toolResult` message: which call it answers, its text and whether the tool failed. */
export interface ToolResultPart {
  toolCallId: string;
  toolName: string;
  text: string;
  isError: boolean;
}

/** How a stored assistant turn failed, as chat.history carries it. */
export interface RunFailure {
  end: "error" | "aborted";
  error?: string;
}

/** Who a rendered message belongs to. */
export type MessageRole = "user" | "assistant";

/** The text blocks of a message joined, or "" when it has none. */
export function messageText(message: WireMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block): block is { type: "text"; text: string } =>
        typeof block === "object" &&
        block !== null &&
        (block as { type?: unknown }).type === "text" &&
        typeof (block as { text?: unknown }).text === "string",
    )
    .map((block) => block.text)
    .join("");
}

/** The role to render a history message as, or undefined for tool results and other entries. */
export function displayRole(message: WireMessage): MessageRole | undefined {
  if (message.role === "user" || message.role === "assistant") return message.role;
  return undefined;
}

/** The failure an assistant message records (`stopReason` "error"/"aborted"), or undefined. */
export function runFailure(message: WireMessage): RunFailure | undefined {
  if (message.role !== "assistant") return undefined;
  if (message.stopReason !== "error" && message.stopReason !== "aborted") return undefined;
  const error = typeof message.errorMessage === "string" ? message.errorMessage.trim() : "";
  return { end: message.stopReason, ...(error !== "" ? { error } : {}) };
}

/** The tool calls (`toolCall` blocks) of an assistant message, in order. */
export function toolCalls(message: WireMessage): ToolCallPart[] {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return [];
  const calls: ToolCallPart[] = [];
  for (const block of message.content as unknown[]) {
    const part = block as { type?: unknown; id?: unknown; name?: unknown; arguments?: unknown };
    if (typeof part !== "object" || part === null || part.type !== "toolCall") continue;
    if (typeof part.name !== "string") continue;
    calls.push({
      id: typeof part.id === "string" ? part.id : "",
      name: part.name,
      args: part.arguments,
    });
  }
  return calls;
}

/** The tool result a `toolResult` message carries, or undefined for other messages. */
export function toolResult(message: WireMessage): ToolResultPart | undefined {
  if (message.role !== "toolResult") return undefined;
  return {
    toolCallId: typeof message.toolCallId === "string" ? message.toolCallId : "",
    toolName: typeof message.toolName === "string" ? message.toolName : "tool",
    text: messageText(message),
    isError: message.isError === true,
  };
}

/** The message's time (epoch ms), when it carries a valid one. */
export function messageTime(message: WireMessage): number | undefined {
  const at = message.timestamp;
  return typeof at === "number" && Number.isFinite(at) && at > 0 ? at : undefined;
}
