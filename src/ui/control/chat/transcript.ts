// The Chat page's list of items, as plain data: built from a session's history (user and assistant
// turns with their times, failed and stopped turns marked, each tool call paired with its result)
// and grown by the live run's events (chat-live.ts). The page renders it (chat-view.ts).
import {
  displayRole,
  messageText,
  messageTime,
  runFailure,
  toolCalls,
  toolResult,
  type WireMessage,
} from "./message-text.js";

/** How a run ended, as its bubble shows it. */
export type RunEnd = "final" | "aborted" | "error";

/** One entry of the chat. */
export type ChatItem =
  | { kind: "user"; id: string; text: string; at?: number; unsent?: string }
  | {
      kind: "assistant";
      id: string;
      text: string;
      at?: number;
      runId?: string;
      streaming?: boolean;
      end?: RunEnd;
      error?: string;
    }
  | {
      kind: "tool";
      id: string;
      toolCallId: string;
      name: string;
      args: unknown;
      at?: number;
      runId?: string;
      /** Undefined while the tool runs. */
      result?: { text: string; isError: boolean };
    };

/** The items of a session's history (chat.history `messages`). */
export function itemsFromHistory(messages: WireMessage[]): ChatItem[] {
  const items: ChatItem[] = [];
  const tools = new Map<string, Extract<ChatItem, { kind: "tool" }>>();
  messages.forEach((message, index) => {
    const at = messageTime(message);
    const stamp = at === undefined ? {} : { at };
    const result = toolResult(message);
    if (result) {
      const call = tools.get(result.toolCallId);
      if (call) call.result = { text: result.text, isError: result.isError };
      return;
    }
    const role = displayRole(message);
    if (!role) return;
    const text = messageText(message);
    const failure = role === "assistant" ? runFailure(message) : undefined;
    if (role === "user" && text !== "")
      items.push({ kind: "user", id: `h${index}`, text, ...stamp });
    if (role === "assistant" && (text !== "" || failure)) {
      items.push({
        kind: "assistant",
        id: `h${index}`,
        text,
        ...stamp,
        ...(failure
          ? { end: failure.end, ...(failure.error ? { error: failure.error } : {}) }
          : {}),
      });
    }
    for (const [n, call] of toolCalls(message).entries()) {
      const item = {
        kind: "tool" as const,
        id: `h${index}.${n}`,
        toolCallId: call.id,
        name: call.name,
        args: call.args,
        ...stamp,
      };
      tools.set(call.id, item);
      items.push(item);
    }
  });
  return items;
}

/** A short one-line view of a tool call's arguments (the summary of its collapsible block). */
export function argsPreview(args: unknown, max = 80): string {
  if (args === undefined || args === null) return "";
  let text: string;
  try {
    text = typeof args === "string" ? args : JSON.stringify(args);
  } catch {
    // A cyclic or odd value: show its type only.
    text = typeof args;
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The arguments pretty-printed for the expanded block. */
export function argsDetail(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, null, 2) ?? "";
  } catch {
    // Not serialisable: nothing to show beyond the summary.
    return String(args);
  }
}
