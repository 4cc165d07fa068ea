// Steer mode inside a run: after each tool call the loop checks the session's steering inbox; when a
// message is waiting, the assistant message's remaining tool calls are skipped and the message injected.
import type {
  AfterToolCallContext,
  AgentMessage,
  BeforeToolCallContext,
  BeforeToolCallResult,
} from "@mariozechner/pi-agent-core";
import type { ToolCall, ToolResultMessage, UserMessage } from "@mariozechner/pi-ai";
import type { InboundMessage } from "./coalesce.js";

/** Result text of a tool call skipped because a user message is waiting (OpenClaw's wording). */
export const SKIPPED_TOOL_CALL_TEXT = "Skipped due to queued user message.";

/** Where steering messages come from; `QueuedTurn` satisfies it. */
export interface SteeringSource {
  hasPendingSteering(): boolean;
  drainSteering(): InboundMessage[];
  /** For a run elsewhere (a worker): calls `listener` whenever a message is steered in, so it can be
   *  drained and forwarded; returns the unsubscribe. */
  watchSteering?(listener: () => void): () => void;
  /** Gives back drained messages the run did not take: they are answered by a follow-up turn. */
  restoreSteering?(messages: InboundMessage[]): void;
}

/** Steer ids of the user messages built from steered messages that carry one. */
const steerIds = new WeakMap<object, string>();

/** The steer id a loop message was built from (a steered message of a run on a worker), if any. */
export function steerIdOf(message: object): string | undefined {
  return steerIds.get(message);
}

/** The pi-agent-core loop hooks that implement steer mode (use with `toolExecution: "sequential"`). */
export interface SteeringHooks {
  beforeToolCall(context: BeforeToolCallContext): Promise<BeforeToolCallResult | undefined>;
  afterToolCall(context: AfterToolCallContext): Promise<undefined>;
  getSteeringMessages(): Promise<AgentMessage[]>;
}

/** The user message a steering message becomes in the model context. */
export function steeringToUserMessage(message: InboundMessage, now: number): UserMessage {
  const images = message.images ?? [];
  const user: UserMessage =
    images.length === 0
      ? { role: "user", content: message.text, timestamp: message.receivedAt ?? now }
      : {
          role: "user",
          content: [{ type: "text", text: message.text }, ...images],
          timestamp: message.receivedAt ?? now,
        };
  if (message.steerId !== undefined) steerIds.set(user, message.steerId);
  return user;
}

/** The error tool result recorded for a skipped tool call (for loops that do not use pi's hooks). */
export function skippedToolResult(toolCall: ToolCall, now: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: toolCall.id,
    toolName: toolCall.name,
    content: [{ type: "text", text: SKIPPED_TOOL_CALL_TEXT }],
    isError: true,
    timestamp: now,
  };
}

/**
 * Hooks for pi-agent-core's `agentLoop`: after each executed tool call a waiting message latches a skip
 * for the rest of that assistant message (blocked with {@link SKIPPED_TOOL_CALL_TEXT}); pi then calls
 * `getSteeringMessages` after the tool batch, which drains the inbox before the next model call.
 */
export function createSteeringHooks(
  source: SteeringSource,
  clock: { now(): number } = { now: () => Date.now() },
): SteeringHooks {
  const skipping = new WeakSet<object>();
  return {
    async beforeToolCall(context) {
      if (!skipping.has(context.assistantMessage)) return undefined;
      return { block: true, reason: SKIPPED_TOOL_CALL_TEXT };
    },
    async afterToolCall(context) {
      if (source.hasPendingSteering()) skipping.add(context.assistantMessage);
      return undefined;
    },
    async getSteeringMessages() {
      const now = clock.now();
      return source.drainSteering().map((message) => steeringToUserMessage(message, now));
    },
  };
}
