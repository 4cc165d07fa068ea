import { type AgentTool, agentLoop } from "@mariozechner/pi-agent-core";
import {
  type Context,
  fauxAssistantMessage,
  fauxToolCall,
  type Message,
  registerFauxProvider,
  Type,
} from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import type { InboundMessage } from "./coalesce.js";
import {
  createSteeringHooks,
  SKIPPED_TOOL_CALL_TEXT,
  type SteeringSource,
  skippedToolResult,
  steeringToUserMessage,
} from "./steering.js";

function inbox(): SteeringSource & { push(text: string): void } {
  const pending: InboundMessage[] = [];
  return {
    push: (text) => pending.push({ text, receivedAt: 42 }),
    hasPendingSteering: () => pending.length > 0,
    drainSteering: () => pending.splice(0),
  };
}

const registrations: Array<{ unregister(): void }> = [];
afterEach(() => {
  for (const registration of registrations.splice(0)) registration.unregister();
});

describe("steer mode in pi-agent-core's loop", () => {
  it("skips the remaining tool calls and injects the queued message before the next model call", async () => {
    const faux = registerFauxProvider();
    registrations.push(faux);
    const source = inbox();
    const executed: string[] = [];
    let secondContext: Context | undefined;
    faux.setResponses([
      fauxAssistantMessage(
        [
          fauxToolCall("echo", { text: "a" }, { id: "c1" }),
          fauxToolCall("echo", { text: "b" }, { id: "c2" }),
          fauxToolCall("echo", { text: "c" }, { id: "c3" }),
        ],
        { stopReason: "toolUse" },
      ),
      (context) => {
        secondContext = { ...context, messages: [...context.messages] };
        return fauxAssistantMessage("ok, switching");
      },
    ]);
    const echo: AgentTool = {
      name: "echo",
      label: "echo",
      description: "echoes",
      parameters: Type.Object({ text: Type.String() }),
      execute: async (_id, params) => {
        const { text } = params as { text: string };
        executed.push(text);
        // A user message arrives while the first tool runs.
        if (text === "a") source.push("stop, do Y instead");
        return { content: [{ type: "text", text }], details: undefined };
      },
    };
    const stream = agentLoop(
      [{ role: "user", content: "do X", timestamp: 1 }],
      { systemPrompt: "test", messages: [], tools: [echo] },
      {
        model: faux.getModel(),
        convertToLlm: (messages) => messages as Message[],
        toolExecution: "sequential",
        ...createSteeringHooks(source),
      },
    );
    for await (const _event of stream) {
      // drain the event stream
    }
    const messages = await stream.result();
    expect(executed).toEqual(["a"]);
    const results = messages.filter((m) => m.role === "toolResult");
    expect(results.map((m) => [m.toolCallId, m.isError, m.content])).toEqual([
      ["c1", false, [{ type: "text", text: "a" }]],
      ["c2", true, [{ type: "text", text: SKIPPED_TOOL_CALL_TEXT }]],
      ["c3", true, [{ type: "text", text: SKIPPED_TOOL_CALL_TEXT }]],
    ]);
    const roles = secondContext!.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult", "user"]);
    expect(secondContext!.messages.at(-1)).toMatchObject({
      role: "user",
      content: "stop, do Y instead",
    });
    expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  });

  it("runs every tool call when nothing is queued", async () => {
    const faux = registerFauxProvider();
    registrations.push(faux);
    const executed: string[] = [];
    faux.setResponses([
      fauxAssistantMessage(
        [fauxToolCall("echo", { text: "a" }), fauxToolCall("echo", { text: "b" })],
        {
          stopReason: "toolUse",
        },
      ),
      fauxAssistantMessage("done"),
    ]);
    const echo: AgentTool = {
      name: "echo",
      label: "echo",
      description: "echoes",
      parameters: Type.Object({ text: Type.String() }),
      execute: async (_id, params) => {
        executed.push((params as { text: string }).text);
        return { content: [{ type: "text", text: "ok" }], details: undefined };
      },
    };
    const stream = agentLoop(
      [{ role: "user", content: "go", timestamp: 1 }],
      { systemPrompt: "", messages: [], tools: [echo] },
      {
        model: faux.getModel(),
        convertToLlm: (messages) => messages as Message[],
        toolExecution: "sequential",
        ...createSteeringHooks(inbox()),
      },
    );
    await stream.result();
    expect(executed).toEqual(["a", "b"]);
  });
});

describe("helpers", () => {
  it("builds the skipped tool result and the steering user message", () => {
    const call = fauxToolCall("exec", { command: "ls" }, { id: "t9" });
    expect(skippedToolResult(call, 7)).toEqual({
      role: "toolResult",
      toolCallId: "t9",
      toolName: "exec",
      content: [{ type: "text", text: "Skipped due to queued user message." }],
      isError: true,
      timestamp: 7,
    });
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    expect(steeringToUserMessage({ text: "look", images: [image] }, 5)).toEqual({
      role: "user",
      content: [{ type: "text", text: "look" }, image],
      timestamp: 5,
    });
  });
});
