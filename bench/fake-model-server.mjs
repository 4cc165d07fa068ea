// A minimal OpenAI chat-completions server for the runtime bench, on 127.0.0.1 port 0: every
// `POST /v1/chat/completions` gets the same short streamed (SSE) text reply after `latencyMs`, in the
// chunk format pi-ai's client expects: a role delta, content deltas, a finish
// chunk, a usage chunk when asked, then `data: [DONE]`. Each request's timings are recorded with
// `performance.now()` (the caller's clock when the server runs in the caller's thread):
//   arrivedAt   — the request's headers were parsed (the first thing the server can see of it),
//   bodyStartAt — the first chunk of the body arrived,
//   lastByteAt  — the last SSE byte was handed to the socket (`res.end`).
// `startFakeModelServerInWorker` runs the same server in a worker thread, so that under load its CPU
// is not taken from the gateway's event loop (a real model runs elsewhere); it records no timings.
// Bench double only; the full scripted fake for tests is test/helpers/fake-openai.ts.
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

const REPLY = ["Hello", " from", " the bench", " model."];

function chunk(id, created, model, choices, extra) {
  return `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
}

/** The SSE body of one reply, written in one go (a zero-latency model that streams instantly). */
function sseReply(index, body, pieces = REPLY) {
  const id = `chatcmpl-bench-${index}`;
  const created = Math.floor(Date.now() / 1000);
  const model = String(body?.model ?? "m1");
  let out = chunk(id, created, model, [
    { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null },
  ]);
  for (const piece of pieces) {
    out += chunk(id, created, model, [
      { index: 0, delta: { content: piece }, finish_reason: null },
    ]);
  }
  out += chunk(id, created, model, [{ index: 0, delta: {}, finish_reason: "stop" }]);
  if (body?.stream_options?.include_usage) {
    const usage = { prompt_tokens: 100, completion_tokens: 6, total_tokens: 106 };
    out += chunk(id, created, model, [], { usage });
  }
  return `${out}data: [DONE]\n\n`;
}

/**
 * Starts the server. `record: false` keeps no per-request timings (long throughput runs); `reply`
 * (request body → text) replaces the fixed reply. Returns `{ baseUrl, port, requests, latencyMs,
 * close() }`; `latencyMs` may be changed live.
 */
export async function startFakeModelServer({ latencyMs = 0, record = true, reply } = {}) {
  const requests = [];
  let count = 0;
  const sockets = new Set();
  const server = createServer((req, res) => {
    const arrivedAt = performance.now();
    let bodyStartAt;
    const parts = [];
    req.on("data", (part) => {
      bodyStartAt ??= performance.now();
      parts.push(part);
    });
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      if (req.method !== "POST" || path !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
        return;
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "body is not JSON" } }));
        return;
      }
      count += 1;
      const index = count;
      const entry = record ? { arrivedAt, bodyStartAt: bodyStartAt ?? arrivedAt } : undefined;
      if (entry) requests.push(entry);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          connection: "keep-alive",
        });
        res.end(sseReply(index, body, reply ? [reply(body)] : REPLY));
        if (entry) entry.lastByteAt = performance.now();
      };
      if (fake.latencyMs > 0) setTimeout(answer, fake.latencyMs);
      else answer();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  const fake = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    latencyMs,
    get count() {
      return count;
    },
    close: () =>
      new Promise((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return fake;
}

/** The same server in a worker thread: `{ baseUrl, close() }`. */
export async function startFakeModelServerInWorker({ latencyMs = 0 } = {}) {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { fakeModelServer: { latencyMs } },
  });
  const baseUrl = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    baseUrl,
    close: async () => {
      worker.postMessage("close");
      await new Promise((resolve) => worker.once("exit", resolve));
    },
  };
}

if (!isMainThread && workerData?.fakeModelServer) {
  const fake = await startFakeModelServer({ ...workerData.fakeModelServer, record: false });
  parentPort.once("message", () => {
    fake.close().then(() => parentPort.close());
  });
  parentPort.postMessage(fake.baseUrl);
}

/** The `models` config section for a custom provider `fake` (model `fake/m1`) at `baseUrl`. */
export function fakeModelsConfig(baseUrl) {
  return {
    mode: "merge",
    providers: {
      fake: {
        baseUrl,
        apiKey: "sk-bench",
        api: "openai-completions",
        models: [{ id: "m1", name: "m1", contextWindow: 32000, maxTokens: 256 }],
      },
    },
  };
}
