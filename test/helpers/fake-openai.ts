// A scripted OpenAI-compatible server on 127.0.0.1 (port 0) speaking chat-completions SSE as pi-ai's
// client expects: text and tool-call deltas, a usage chunk, `data: [DONE]`; plus 4xx/5xx, hangs and cut
// streams. Every request is recorded for assertions. Test double only.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token counts reported in the usage chunk (estimated from the request and reply when absent). */
export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Prompt tokens read from the provider's cache (`prompt_tokens_details.cached_tokens`). */
  cached_tokens?: number;
}

/** Streams text: split into `chunks` pieces (a count or the pieces), `delayMs` between pieces. */
export interface FakeTextStep {
  kind: "text";
  text: string;
  chunks?: number | string[];
  delayMs?: number;
  usage?: FakeUsage;
  /** Default "stop"; "length" imitates a truncated reply. */
  finishReason?: string;
  /** Reasoning streamed before the text as `reasoning_content` deltas (a thinking block). */
  reasoning?: string;
}

/** One tool call of a {@link FakeToolCallStep}. */
export interface FakeToolCall {
  name: string;
  args: unknown;
  id?: string;
}

/** Streams tool calls (after optional text): `tool_calls` deltas, arguments in `argChunks` fragments. */
export interface FakeToolCallStep {
  kind: "tool_calls";
  calls: FakeToolCall[];
  text?: string;
  argChunks?: number;
  delayMs?: number;
  usage?: FakeUsage;
}

/** Answers with an HTTP error status and a JSON body (OpenAI's `{ error: { message, type } }` by default). */
export interface FakeStatusStep {
  kind: "status";
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Never answers (or sends the SSE headers, then nothing) until the client gives up or the server closes. */
export interface FakeHangStep {
  kind: "hang";
  afterHeaders?: boolean;
}

/** Streams `afterChunks` text pieces, then destroys the socket (or ends without finish/[DONE] if `clean`). */
export interface FakeCutStep {
  kind: "cut";
  afterChunks: number;
  text?: string;
  clean?: boolean;
}

/** Holds the answer until `until` settles, then answers with `answer` (ordering tests, no clocks). */
export interface FakeGateStep {
  kind: "gate";
  until: Promise<unknown>;
  answer: FakeStep;
}

/** One scripted answer to one chat-completions request. */
export type FakeStep =
  | FakeTextStep
  | FakeToolCallStep
  | FakeStatusStep
  | FakeHangStep
  | FakeCutStep
  | FakeGateStep;

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: Record<string, unknown> | undefined;
}

/** Options of {@link startFakeOpenAI}. */
export interface FakeOpenAIOptions {
  /** Delay before answering each chat request (time to first byte), for benches. */
  latencyMs?: number;
  /** Ids listed by `GET /v1/models` (default `["fake-model"]`). */
  models?: string[];
  /** Answer used when the script is empty (default: a 400 naming the problem); a function computes
   *  it from the request (a reply that quotes its prompt, a random delay). */
  fallback?: FakeStep | ((request: RecordedRequest) => FakeStep);
}

/** The running fake; the script methods queue answers and return the server for chaining. */
export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1`, the model's `baseUrl`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request, in arrival order (models listing included). */
  readonly requests: RecordedRequest[];
  /** Only `POST /v1/chat/completions` requests. */
  readonly chatRequests: RecordedRequest[];
  /** Scripted answers not used yet. */
  readonly pending: number;
  latencyMs: number;
  enqueue(...steps: FakeStep[]): FakeOpenAI;
  text(text: string, options?: Omit<FakeTextStep, "kind" | "text">): FakeOpenAI;
  toolCall(
    name: string,
    args: unknown,
    options?: Omit<FakeToolCallStep, "kind" | "calls">,
  ): FakeOpenAI;
  toolCalls(calls: FakeToolCall[], options?: Omit<FakeToolCallStep, "kind" | "calls">): FakeOpenAI;
  status(status: number, body?: unknown, headers?: Record<string, string>): FakeOpenAI;
  hang(options?: { afterHeaders?: boolean }): FakeOpenAI;
  cutStream(afterChunks: number, options?: { text?: string; clean?: boolean }): FakeOpenAI;
  close(): Promise<void>;
}

const sleep = (ms: number) =>
  ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve();

/** Splits `text` into `count` pieces of near-equal length (or returns the given pieces). */
function pieces(text: string, chunks: number | string[] | undefined): string[] {
  if (Array.isArray(chunks)) return chunks;
  if (text === "") return [];
  const count = Math.max(1, Math.min(text.length, chunks ?? 3));
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function errorBody(status: number): unknown {
  const type =
    status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "bad_request";
  return { error: { message: `fake-openai: status ${status}`, type, param: null, code: null } };
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Writes one chat-completions response (SSE or JSON) for a step. */
class Responder {
  private closed = false;
  private readonly id: string;
  private readonly created = Math.floor(Date.now() / 1000);

  private readonly res: ServerResponse;
  private readonly request: RecordedRequest;

  constructor(params: { res: ServerResponse; request: RecordedRequest; index: number }) {
    this.res = params.res;
    this.request = params.request;
    this.id = `chatcmpl-fake-${params.index}`;
    this.res.on("close", () => {
      this.closed = true;
    });
  }

  private get model(): string {
    return String(this.request.body?.model ?? "fake-model");
  }

  private get streaming(): boolean {
    return this.request.body?.stream === true;
  }

  private usage(completion: string, usage?: FakeUsage) {
    const prompt_tokens = usage?.prompt_tokens ?? Math.ceil(this.request.rawBody.length / 4);
    const completion_tokens = usage?.completion_tokens ?? Math.ceil(completion.length / 4);
    const cached =
      usage?.cached_tokens !== undefined
        ? { prompt_tokens_details: { cached_tokens: usage.cached_tokens } }
        : {};
    const total_tokens = prompt_tokens + completion_tokens;
    return { prompt_tokens, completion_tokens, total_tokens, ...cached };
  }

  private startStream(): void {
    this.res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    this.res.flushHeaders();
  }

  private send(delta: Record<string, unknown>, finishReason: string | null = null): void {
    if (this.closed) return;
    const chunk = {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.model,
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
    this.res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }

  private finish(completion: string, usage?: FakeUsage): void {
    if (this.closed) return;
    const options = this.request.body?.stream_options as { include_usage?: boolean } | undefined;
    if (options?.include_usage) {
      const chunk = {
        id: this.id,
        object: "chat.completion.chunk",
        created: this.created,
        model: this.model,
        choices: [],
        usage: this.usage(completion, usage),
      };
      this.res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    this.res.end("data: [DONE]\n\n");
  }

  private json(
    message: Record<string, unknown>,
    finishReason: string,
    completion: string,
    usage?: FakeUsage,
  ) {
    const body = {
      id: this.id,
      object: "chat.completion",
      created: this.created,
      model: this.model,
      choices: [
        { index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason },
      ],
      usage: this.usage(completion, usage),
    };
    writeJson(this.res, 200, body);
  }

  async text(step: FakeTextStep): Promise<void> {
    const finishReason = step.finishReason ?? "stop";
    if (!this.streaming)
      return this.json({ content: step.text }, finishReason, step.text, step.usage);
    this.startStream();
    this.send({ role: "assistant", content: "" });
    for (const piece of pieces(step.reasoning ?? "", 2)) this.send({ reasoning_content: piece });
    for (const [i, piece] of pieces(step.text, step.chunks).entries()) {
      if (i > 0) await sleep(step.delayMs ?? 0);
      this.send({ content: piece });
    }
    this.send({}, finishReason);
    this.finish(step.text, step.usage);
  }

  async toolCalls(step: FakeToolCallStep): Promise<void> {
    const calls = step.calls.map((call, index) => ({
      index,
      id: call.id ?? `call_${index + 1}`,
      name: call.name,
      args: JSON.stringify(call.args ?? {}),
    }));
    const completion = calls.map((call) => call.name + call.args).join("");
    if (!this.streaming) {
      const tool_calls = calls.map((call) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.args },
      }));
      return this.json(
        { content: step.text ?? null, tool_calls },
        "tool_calls",
        completion,
        step.usage,
      );
    }
    this.startStream();
    this.send({ role: "assistant", content: step.text ? "" : null });
    for (const piece of pieces(step.text ?? "", undefined)) this.send({ content: piece });
    for (const call of calls) {
      await sleep(step.delayMs ?? 0);
      const head = { index: call.index, id: call.id, type: "function" };
      this.send({ tool_calls: [{ ...head, function: { name: call.name, arguments: "" } }] });
      for (const fragment of pieces(call.args, step.argChunks ?? 2)) {
        this.send({ tool_calls: [{ index: call.index, function: { arguments: fragment } }] });
      }
    }
    this.send({}, "tool_calls");
    this.finish(completion, step.usage);
  }

  status(step: FakeStatusStep): void {
    const body = step.body ?? errorBody(step.status);
    const text = typeof body === "string" ? body : JSON.stringify(body);
    const type = typeof body === "string" ? "text/plain" : "application/json";
    this.res.writeHead(step.status, { "content-type": type, ...step.headers });
    this.res.end(text);
  }

  hang(step: FakeHangStep): void {
    if (step.afterHeaders) this.startStream();
  }

  async cut(step: FakeCutStep): Promise<void> {
    const text = step.text ?? "This reply is cut off somewhere in the middle of a sentence";
    this.startStream();
    this.send({ role: "assistant", content: "" });
    for (const piece of pieces(text, 6).slice(0, step.afterChunks)) this.send({ content: piece });
    // Let the chunks reach the client before the connection drops.
    await sleep(20);
    if (step.clean) this.res.end();
    else this.res.socket?.destroy();
  }
}

/** Starts the fake on 127.0.0.1 with an OS-assigned port. */
export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const script: FakeStep[] = [];
  const requests: RecordedRequest[] = [];
  const models = options.models ?? ["fake-model"];
  let chatCount = 0;

  const respond = async (res: ServerResponse, request: RecordedRequest): Promise<void> => {
    const fallback = options.fallback;
    let step = script.shift() ?? (typeof fallback === "function" ? fallback(request) : fallback);
    chatCount += 1;
    while (step?.kind === "gate") {
      await step.until;
      step = step.answer;
    }
    const responder = new Responder({ res, request, index: chatCount });
    await sleep(fake.latencyMs);
    if (!step) {
      const message = "fake-openai: no scripted response left for this request";
      return writeJson(res, 400, { error: { message, type: "invalid_request_error" } });
    }
    switch (step.kind) {
      case "text":
        return responder.text(step);
      case "tool_calls":
        return responder.toolCalls(step);
      case "status":
        return responder.status(step);
      case "hang":
        return responder.hang(step);
      case "cut":
        return responder.cut(step);
    }
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const rawBody = Buffer.concat(parts).toString("utf8");
      let body: Record<string, unknown> | undefined;
      try {
        body = rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined; // recorded as raw text; the route below answers 400
      }
      const path = (req.url ?? "/").split("?")[0];
      const { method = "GET", headers } = req;
      const request: RecordedRequest = { method, path, headers, rawBody, body };
      requests.push(request);
      if (req.method === "GET" && path === "/v1/models") {
        const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" }));
        writeJson(res, 200, { object: "list", data });
      } else if (req.method === "POST" && path === "/v1/chat/completions" && body) {
        respond(res, request).catch((error: unknown) => {
          // A write after the client left is not a test failure; drop the connection and move on.
          res.destroy(error instanceof Error ? error : new Error(String(error)));
        });
      } else {
        const message = `fake-openai: no route ${req.method} ${path}`;
        writeJson(res, body || req.method === "GET" ? 404 : 400, { error: { message } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeOpenAI = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    get chatRequests() {
      return requests.filter((r) => r.method === "POST" && r.path === "/v1/chat/completions");
    },
    get pending() {
      return script.length;
    },
    latencyMs: options.latencyMs ?? 0,
    enqueue(...steps) {
      script.push(...steps);
      return fake;
    },
    text: (text, opts = {}) => fake.enqueue({ kind: "text", text, ...opts }),
    toolCall: (name, args, opts = {}) =>
      fake.enqueue({ kind: "tool_calls", calls: [{ name, args }], ...opts }),
    toolCalls: (calls, opts = {}) => fake.enqueue({ kind: "tool_calls", calls, ...opts }),
    status: (status, body, headers) => fake.enqueue({ kind: "status", status, body, headers }),
    hang: (opts = {}) => fake.enqueue({ kind: "hang", ...opts }),
    cutStream: (afterChunks, opts = {}) => fake.enqueue({ kind: "cut", afterChunks, ...opts }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}
