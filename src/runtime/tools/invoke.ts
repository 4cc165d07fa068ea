// Runs one tool call the way pi-agent-core's loop does (prepareArguments → schema validation → execute,
// a throw becomes an `isError` result), for callers outside the loop: tests, a future `tools.invoke` RPC.
import type { AgentToolUpdateCallback } from "@mariozechner/pi-agent-core";
import { validateToolArguments } from "@mariozechner/pi-ai";
import { type AnyAgentTool, errorMessage, type ToolContent } from "./types.js";

/** A finished tool call, as the loop would put it in a `toolResult` message. */
export interface ToolCallOutcome {
  content: ToolContent[];
  details: unknown;
  isError: boolean;
}

/** Inputs of {@link invokeTool}. */
export interface InvokeToolParams {
  tool: AnyAgentTool;
  /** Raw arguments as a model would send them. */
  args: unknown;
  signal?: AbortSignal;
  toolCallId?: string;
  onUpdate?: AgentToolUpdateCallback;
}

/** Executes one call of `tool`; never throws. */
export async function invokeTool(params: InvokeToolParams): Promise<ToolCallOutcome> {
  const { tool } = params;
  const id = params.toolCallId ?? "call_local";
  try {
    const prepared = tool.prepareArguments ? tool.prepareArguments(params.args) : params.args;
    const args = validateToolArguments(tool, {
      type: "toolCall",
      id,
      name: tool.name,
      arguments: (prepared ?? {}) as Record<string, unknown>,
    });
    const result = await tool.execute(id, args, params.signal, params.onUpdate);
    return { content: result.content, details: result.details, isError: false };
  } catch (err) {
    return { content: [{ type: "text", text: errorMessage(err) }], details: {}, isError: true };
  }
}
