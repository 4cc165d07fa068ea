// The warm-up's rehearsal of a provider stream: the agent's model request sent for real — but to a
// loopback HTTP server inside this process that answers with a tiny canned reply in the provider's
// own streaming format — so the first real turn finds fetch's connection machinery (undici, its HTTP
// parser), the SDK's response and SSE parsing and pi-ai's event stream already compiled (the first
// fetch of a process costs tens of milliseconds). A dummy key is sent, never the agent's; nothing
// leaves the host; the server is closed before this resolves.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Api, type Model, streamSimple } from "@mariozechner/pi-ai";

type Events = ReadonlyArray<readonly [event: string | undefined, data: unknown]>;

const OPENAI_CHUNK = {
  id: "warm-up",
  object: "chat.completion.chunk",
  created: 0,
  model: "warm-up",
};

/** A canned streamed reply ("ok") per provider API whose wire format is rehearsed. */
const CANNED: Readonly<Record<string, Events>> = {
  "openai-completions": [
    [
      undefined,
      {
        ...OPENAI_CHUNK,
        choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }],
      },
    ],
    [
      undefined,
      {
        ...OPENAI_CHUNK,
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    ],
    [undefined, "[DONE]"],
  ],
  "anthropic-messages": [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: "msg_warm_up",
          type: "message",
          role: "assistant",
          content: [],
          model: "warm-up",
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 0 },
        },
      },
    ],
    [
      "content_block_start",
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ],
    [
      "content_block_delta",
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } },
    ],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 1 },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ],
};

/** Whether this provider API's stream can be rehearsed. */
export function canRehearseStream(api: string): boolean {
  return Object.hasOwn(CANNED, api);
}

function answer(events: Events, req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  req.once("end", () => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const [event, data] of events) {
      const line = typeof data === "string" ? data : JSON.stringify(data);
      res.write(`${event ? `event: ${event}\n` : ""}data: ${line}\n\n`);
    }
    res.end();
  });
}

/** A loopback server answering every request with the canned reply of `api` (see the header). */
export interface RehearsalServer {
  /** The base URL to give the model (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts a {@link RehearsalServer} for a provider API that {@link canRehearseStream}. */
export async function startRehearsalServer(api: string): Promise<RehearsalServer> {
  const events = CANNED[api];
  if (!events) throw new Error(`no stream rehearsal for provider API "${api}"`);
  const server = createServer((req, res) => answer(events, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Sends the agent's request to an in-process server in the provider's format and reads the
 *  canned reply through pi-ai; resolves with the text it streamed ("ok") once the server closed. */
export async function rehearseProviderStream(input: {
  model: Model<Api>;
  systemPrompt: string;
  tools: Parameters<typeof streamSimple>[1]["tools"];
}): Promise<string> {
  const server = await startRehearsalServer(input.model.api);
  try {
    const model = { ...input.model, baseUrl: server.baseUrl };
    const messages = [{ role: "user" as const, content: "warm-up", timestamp: Date.now() }];
    const stream = streamSimple(
      model,
      {
        systemPrompt: input.systemPrompt,
        messages,
        ...(input.tools ? { tools: input.tools } : {}),
      },
      { apiKey: "warm-up", maxRetries: 0 },
    );
    const result = await stream.result();
    if (result.stopReason === "error") throw new Error(result.errorMessage ?? "stream error");
    return result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  } finally {
    await server.close();
  }
}
