// One attempt of a run: a pi-agent-core loop against one model with one credential. Starts from
// the user's message, or continues the existing context after a failover or a compaction.
import {
  type AgentEvent,
  type AgentMessage,
  type AgentTool,
  runAgentLoop,
  runAgentLoopContinue,
  type StreamFn,
} from "@mariozechner/pi-agent-core";
import type { Api, AssistantMessage, Message, Model, ThinkingLevel } from "@mariozechner/pi-ai";
import type { TranscriptMessage } from "../../sessions/index.js";
import { pruneToolResults } from "../compaction/index.js";
import type { SteeringHooks } from "../lanes/index.js";

/** Inputs of {@link runAttempt}. */
export interface AttemptParams {
  model: Model<Api>;
  apiKey: string;
  systemPrompt: string;
  /** Context so far (history + this run's messages); the loop appends to it. */
  messages: AgentMessage[];
  /** The user's message on the first attempt; absent when continuing. */
  prompt?: AgentMessage;
  // biome-ignore lint/suspicious/noExplicitAny: pi-agent-core's own tool arrays are AgentTool<any>[].
  tools: AgentTool<any>[];
  params: Record<string, unknown>;
  /** The session's thinking level (the provider's reasoning effort); absent: the model's default. */
  reasoning?: ThinkingLevel;
  steering?: SteeringHooks;
  /** Tool results older than this many user turns are replaced in the prompt (never in the transcript). */
  keepToolResultTurns?: number;
  signal: AbortSignal;
  streamFn?: StreamFn;
  onEvent: (event: AgentEvent) => void | Promise<void>;
}

/** What the attempt produced: the messages it added and its last assistant message. */
export interface AttemptOutcome {
  added: AgentMessage[];
  final?: AssistantMessage;
}

/** The messages a provider sees: failed or aborted assistant turns are left out of the context. */
export function toLlmMessages(messages: AgentMessage[]): Message[] {
  return (messages as Message[]).filter((message) => {
    if (message.role === "assistant") {
      return message.stopReason !== "error" && message.stopReason !== "aborted";
    }
    return message.role === "user" || message.role === "toolResult";
  });
}

function numberParam(params: Record<string, unknown>, key: string): number | undefined {
  const value = params[key];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** Runs the loop once; provider failures come back as a final message with `stopReason: "error"`. */
export async function runAttempt(params: AttemptParams): Promise<AttemptOutcome> {
  const temperature = numberParam(params.params, "temperature");
  const maxTokens = numberParam(params.params, "maxTokens");
  const config = {
    model: params.model,
    apiKey: params.apiKey,
    getApiKey: () => params.apiKey,
    // Failover is ours: a 429 or 5xx moves on at once instead of the SDK backing off and retrying.
    maxRetries: 0,
    convertToLlm: toLlmMessages,
    ...(params.keepToolResultTurns !== undefined
      ? {
          transformContext: async (messages: AgentMessage[]) =>
            pruneToolResults(messages as unknown as TranscriptMessage[], {
              keepLastTurns: params.keepToolResultTurns ?? 0,
            }) as unknown as AgentMessage[],
        }
      : {}),
    toolExecution: "sequential" as const,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(params.reasoning ? { reasoning: params.reasoning } : {}),
    ...(params.steering
      ? {
          beforeToolCall: params.steering.beforeToolCall,
          afterToolCall: params.steering.afterToolCall,
          getSteeringMessages: params.steering.getSteeringMessages,
        }
      : {}),
  };
  const context = {
    systemPrompt: params.systemPrompt,
    messages: params.messages,
    tools: params.tools,
  };
  const emit = (event: AgentEvent) => params.onEvent(event);
  const added = params.prompt
    ? await runAgentLoop([params.prompt], context, config, emit, params.signal, params.streamFn)
    : await runAgentLoopContinue(context, config, emit, params.signal, params.streamFn);
  const final = [...added].reverse().find((m): m is AssistantMessage => m.role === "assistant");
  return final ? { added, final } : { added };
}
