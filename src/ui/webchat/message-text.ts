// The visible text of a transcript message as chat.history and `chat` events carry it (pi-ai
// message shapes: content is a string or a list of typed blocks; only text blocks are shown).

/** A message as WebChat reads it; every field is optional because it comes off the wire. */
export interface WireMessage {
  role?: unknown;
  content?: unknown;
  /** pi-ai's end of an assistant turn: "error" and "aborted" mark a failed run. */
  stopReason?: unknown;
  errorMessage?: unknown;
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
