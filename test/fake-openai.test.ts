// Drives the fake OpenAI server with pi-ai's real openai-completions client: what a run loop will see for
// text, tool calls, 429/500, hangs (with abort) and cut streams.
import {
  type AssistantMessageEvent,
  type Context,
  complete,
  type Model,
  streamSimple,
  Type,
} from "@mariozechner/pi-ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "./helpers/fake-openai.js";

let fake: FakeOpenAI;
let model: Model<"openai-completions">;
// No SDK retries: each scripted answer is seen exactly once, and errors surface at once.
const options = { apiKey: "test-key", maxRetries: 0 };

const context: Context = {
  systemPrompt: "You are a test.",
  // Content blocks, as pi-agent-core's Agent sends a prompt (a plain string is sent as a string).
  messages: [{ role: "user", content: [{ type: "text", text: "What time is it?" }], timestamp: 1 }],
  tools: [
    {
      name: "get_time",
      description: "Current time in a timezone",
      parameters: Type.Object({ tz: Type.String() }),
    },
  ],
};

beforeEach(async () => {
  fake = await startFakeOpenAI();
  model = {
    id: "fake-model",
    name: "Fake",
    api: "openai-completions",
    provider: "fake",
    baseUrl: fake.baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 1024,
  };
});

afterEach(async () => {
  await fake.close();
});

async function collect(
  stream: AsyncIterable<AssistantMessageEvent>,
): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("fake OpenAI server with pi-ai", () => {
  it("streams text deltas and usage, and records the request as pi sends it", async () => {
    fake.text("The time is 12:00 UTC.", {
      chunks: 4,
      usage: { prompt_tokens: 30, completion_tokens: 7 },
    });
    const stream = streamSimple(model, context, options);
    const events = await collect(stream);
    const message = await stream.result();
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(deltas).toHaveLength(4);
    expect(deltas.join("")).toBe("The time is 12:00 UTC.");
    expect(message).toMatchObject({
      role: "assistant",
      stopReason: "stop",
      content: [{ type: "text", text: "The time is 12:00 UTC." }],
      usage: { input: 30, output: 7 },
    });

    const [request] = fake.chatRequests;
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.headers.accept).toContain("application/json");
    expect(request.body).toMatchObject({
      model: "fake-model",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "You are a test." },
        { role: "user", content: [{ type: "text", text: "What time is it?" }] },
      ],
      tools: [{ type: "function", function: { name: "get_time", parameters: expect.any(Object) } }],
    });
  });

  it("streams a tool call, then sees the tool result in the next request", async () => {
    fake.toolCall("get_time", { tz: "UTC" }, { argChunks: 3 }).text("It is 12:00 UTC.");
    const first = await complete(model, context, options);
    expect(first.stopReason).toBe("toolUse");
    expect(first.content).toEqual([
      { type: "toolCall", id: "call_1", name: "get_time", arguments: { tz: "UTC" } },
    ]);

    const followUp: Context = {
      ...context,
      messages: [
        ...context.messages,
        first,
        {
          role: "toolResult",
          toolCallId: "call_1",
          toolName: "get_time",
          content: [{ type: "text", text: "12:00 in UTC" }],
          isError: false,
          timestamp: 2,
        },
      ],
    };
    const second = await complete(model, followUp, options);
    expect(second.content).toEqual([{ type: "text", text: "It is 12:00 UTC." }]);
    const messages = fake.chatRequests[1].body?.messages as Array<Record<string, unknown>>;
    expect(messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "get_time", arguments: '{"tz":"UTC"}' },
          },
        ],
      },
      { role: "tool", content: "12:00 in UTC", tool_call_id: "call_1" },
    ]);
  });

  it("surfaces 429 and 500 as error messages with the status, one request each", async () => {
    fake.status(429, undefined, { "retry-after": "1" }).status(500);
    const limited = await complete(model, context, options);
    expect(limited.stopReason).toBe("error");
    expect(limited.errorMessage).toMatch(/429/);
    const broken = await complete(model, context, options);
    expect(broken.stopReason).toBe("error");
    expect(broken.errorMessage).toMatch(/500/);
    expect(fake.chatRequests).toHaveLength(2);
  });

  it("hangs until the caller aborts; the result is 'aborted'", async () => {
    fake.hang().hang({ afterHeaders: true });
    for (const _ of [1, 2]) {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 100);
      const message = await complete(model, context, { ...options, signal: controller.signal });
      expect(message.stopReason).toBe("aborted");
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it("reports a stream cut mid-reply as an error, keeping the text received", async () => {
    fake.cutStream(2, { text: "abcdefghijkl" });
    const stream = streamSimple(model, context, options);
    const events = await collect(stream);
    const message = await stream.result();
    expect(events.at(-1)?.type).toBe("error");
    expect(message.stopReason).toBe("error");
    expect(message.content).toEqual([{ type: "text", text: "abcd" }]);
  });

  it("a stream that ends without finish_reason or [DONE] looks like a normal stop to pi", async () => {
    // Worth knowing for failover: pi cannot tell this truncation from a finished reply.
    fake.cutStream(1, { text: "abcdef", clean: true });
    const message = await complete(model, context, options);
    expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "a" }] });
  });

  it("lists models, answers 400 when the script is empty, and applies latencyMs", async () => {
    const listing = await fetch(`${fake.baseUrl}/models`);
    expect(await listing.json()).toMatchObject({ object: "list", data: [{ id: "fake-model" }] });
    const unscripted = await complete(model, context, options);
    expect(unscripted.errorMessage).toMatch(/no scripted response/);

    fake.latencyMs = 120;
    fake.text("slow");
    const started = Date.now();
    const slow = await complete(model, context, options);
    expect(slow.content).toEqual([{ type: "text", text: "slow" }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/models",
      "POST /v1/chat/completions",
      "POST /v1/chat/completions",
    ]);
  });
});
