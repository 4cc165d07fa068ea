// A transcript branch builder for compaction tests: entries with ids e1, e2, … and sized messages.
import type { TranscriptEntry } from "../../src/sessions/index.js";

/** A branch under construction; each method appends one entry and returns its id. */
export interface BranchBuilder {
  entries: TranscriptEntry[];
  user(tokens: number, label?: string): string;
  assistant(tokens: number, label?: string): string;
  toolCall(callId: string, name?: string): string;
  toolResult(callId: string, tokens: number): string;
  entry(fields: Record<string, unknown> & { type: string }): string;
}

/** Text of about `tokens` estimated tokens (4 chars each), starting with `label`. */
export function sized(tokens: number, label = ""): string {
  return (label + " ").padEnd(tokens * 4, "x");
}

/** Starts an empty branch; entry ids are e1, e2, … */
export function branchBuilder(): BranchBuilder {
  const entries: TranscriptEntry[] = [];
  const entry = (fields: Record<string, unknown> & { type: string }): string => {
    const id = `e${entries.length + 1}`;
    entries.push({
      id,
      parentId: entries.at(-1)?.id ?? null,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, entries.length)).toISOString(),
      ...fields,
    });
    return id;
  };
  const message = (message: Record<string, unknown>) => entry({ type: "message", message });
  return {
    entries,
    entry,
    user: (tokens, label) => message({ role: "user", content: sized(tokens, label), timestamp: 1 }),
    assistant: (tokens, label) =>
      message({ role: "assistant", content: [{ type: "text", text: sized(tokens, label) }] }),
    toolCall: (callId, name = "exec") =>
      message({
        role: "assistant",
        content: [{ type: "toolCall", id: callId, name, arguments: {} }],
        stopReason: "toolUse",
      }),
    toolResult: (callId, tokens) =>
      message({
        role: "toolResult",
        toolCallId: callId,
        toolName: "exec",
        content: [{ type: "text", text: sized(tokens) }],
        isError: false,
      }),
  };
}
