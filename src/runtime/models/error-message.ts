// An assistant message that carries only an error, in pi-ai's shape: what the transcript keeps for a
// failed turn, and what pi-ai's overflow detector reads. Usage is zero: no model call produced it.
import type { AssistantMessage } from "@mariozechner/pi-ai";

/** An error-only assistant message (`stopReason: "error"`, empty content, zero usage). */
export function errorAssistantMessage(params: {
  error: string;
  provider: string;
  model: string;
  timestamp: number;
}): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "openai-completions",
    provider: params.provider,
    model: params.model,
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "error",
    errorMessage: params.error,
    timestamp: params.timestamp,
  };
}
