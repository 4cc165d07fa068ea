// Event fan-out: what one turn with a long streamed reply costs each connected client.
//
// Method. A gateway child (`pincer gateway`, as bench/gateway.mjs spawns it) on a custom provider
// served by a model server in this file: every reply is REPLY_CHARS characters streamed as SSE
// deltas of DELTA_CHARS characters, either in one write (a fast model) or DELTA_GAP_MS apart (a
// paced model, so the 150 ms delta window is crossed several times). Two kinds of clients, two of
// each: OpenClaw-shape ones (no caps: today's frames) and `text-deltas` ones (`caps:
// ["text-deltas"]`). Each turn is sent by one client of a kind (it also gets the ack and the final
// `res`); the other client of that kind watches. For each, the UTF-8 bytes of every `event` frame of
// the run (the fan-out) are counted, and for the sender also its total with the ack and the final
// `res`. Median of TURNS turns (one session per turn). Target: the event bytes of a `text-deltas`
// client at most 3× the reply's size.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { startGatewayProcess, stopChild, withTimeout } from "./gateway.mjs";

const TOKEN = "bench-token-1";
const REPLY_CHARS = 4000;
const DELTA_CHARS = 16;
const DELTA_GAP_MS = 4;
const TURNS = 5;

/** The reply text: REPLY_CHARS printable characters. */
function replyText() {
  const words = "lorem ipsum dolor sit amet consectetur adipiscing elit ";
  return words.repeat(Math.ceil(REPLY_CHARS / words.length)).slice(0, REPLY_CHARS);
}

function sseChunk(content, finish) {
  const choices = [
    { index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish },
  ];
  return `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m1", choices })}\n\n`;
}

/** A chat-completions server streaming the reply in DELTA_CHARS pieces, `gapMs` apart (0: one write). */
async function startStreamingModel() {
  const text = replyText();
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const pieces = [];
      for (let i = 0; i < text.length; i += DELTA_CHARS)
        pieces.push(text.slice(i, i + DELTA_CHARS));
      if (model.gapMs === 0) {
        res.write(pieces.map((piece) => sseChunk(piece, null)).join(""));
      } else {
        for (const piece of pieces) {
          res.write(sseChunk(piece, null));
          await new Promise((resolve) => setTimeout(resolve, model.gapMs));
        }
      }
      res.end(`${sseChunk(undefined, "stop")}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const model = {
    gapMs: 0,
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
  return model;
}

/** A connected client that counts bytes while `counting` is set: all, and its run's events. */
async function countingClient(url, caps) {
  const ws = new WebSocket(url);
  const client = { bytes: 0, eventBytes: 0, runId: "", counting: false, listeners: new Set(), ws };
  ws.on("message", (data) => {
    const frame = JSON.parse(data.toString());
    if (client.counting) {
      client.bytes += data.length;
      if (frame.type === "event" && frame.payload?.runId === client.runId)
        client.eventBytes += data.length;
    }
    for (const listener of client.listeners) listener(frame);
  });
  const next = (match) =>
    withTimeout(
      new Promise((resolve) => {
        const listener = (frame) => {
          if (!match(frame)) return;
          client.listeners.delete(listener);
          resolve(frame);
        };
        client.listeners.add(listener);
      }),
      "frame",
      30_000,
    );
  client.next = next;
  await next((frame) => frame.event === "connect.challenge");
  ws.send(
    JSON.stringify({
      type: "req",
      id: "c",
      method: "connect",
      params: {
        minProtocol: 3,
        maxProtocol: 4,
        client: { id: "test", version: "1", platform: "linux", mode: "test" },
        ...(caps ? { caps } : {}),
        auth: { token: TOKEN },
      },
    }),
  );
  const hello = await next((frame) => frame.type === "res" && frame.id === "c");
  if (!hello.ok) throw new Error(`connect refused: ${JSON.stringify(hello.error)}`);
  return client;
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One turn; returns the bytes of the sender and the watcher. */
async function measureTurn(sender, watcher, turn) {
  const id = `t${turn}`;
  const runId = `fanout-${turn}-${Date.now()}`;
  for (const client of [sender, watcher]) {
    client.bytes = 0;
    client.eventBytes = 0;
    client.runId = runId;
    client.counting = true;
  }
  const final = sender.next(
    (frame) => frame.type === "res" && frame.id === id && frame.payload?.status !== "accepted",
  );
  const watched = watcher.next(
    (frame) =>
      frame.event === "chat" && frame.payload?.runId === runId && frame.payload.state !== "delta",
  );
  sender.ws.send(
    JSON.stringify({
      type: "req",
      id,
      method: "agent",
      params: { message: "write", sessionKey: `fanout-${turn}`, idempotencyKey: runId },
    }),
  );
  const res = await final;
  const chat = await watched;
  sender.counting = false;
  watcher.counting = false;
  if (res.payload?.status !== "ok") throw new Error(`turn failed: ${JSON.stringify(res.payload)}`);
  const text = chat.payload?.message?.content?.[0]?.text ?? "";
  if (text.length !== REPLY_CHARS) throw new Error(`final text is ${text.length} chars`);
  return {
    sender: { bytes: sender.bytes, eventBytes: sender.eventBytes },
    watcher: { eventBytes: watcher.eventBytes },
  };
}

/** "N.N×" of the reply's size. */
function times(bytes) {
  return `${(bytes / REPLY_CHARS).toFixed(1)}×`;
}

/** Bench rows for `npm run bench`. */
export async function fanoutRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-fanout-"));
  const model = await startStreamingModel();
  const home = join(root, "home");
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const config = {
    models: {
      mode: "merge",
      providers: {
        fake: {
          baseUrl: model.baseUrl,
          apiKey: "sk-bench",
          api: "openai-completions",
          models: [{ id: "m1", name: "m1", contextWindow: 32000, maxTokens: 4096 }],
        },
      },
    },
    agents: {
      defaults: { model: "fake/m1", workspace: join(home, "workspace"), skipBootstrap: true },
      list: [{ id: "main" }],
    },
  };
  writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  const { child, url } = await startGatewayProcess(home);
  const rows = [];
  try {
    const kinds = [
      { name: "OpenClaw shape", caps: undefined, target: "— (unchanged)" },
      { name: "text-deltas", caps: ["text-deltas"], target: "events ≤ 3× reply" },
    ];
    const clients = [];
    for (const kind of kinds) {
      kind.sender = await countingClient(url, kind.caps);
      kind.watcher = await countingClient(url, kind.caps);
      clients.push(kind.sender, kind.watcher);
    }
    await measureTurn(kinds[0].sender, kinds[0].watcher, 0); // warm-up: loads pi-ai
    for (const gapMs of [0, DELTA_GAP_MS]) {
      model.gapMs = gapMs;
      const pace = gapMs === 0 ? "fast model" : `${gapMs} ms/delta`;
      for (const kind of kinds) {
        const turns = [];
        for (let turn = 1; turn <= TURNS; turn++)
          turns.push(await measureTurn(kind.sender, kind.watcher, `${gapMs}-${kind.name}-${turn}`));
        const watcher = median(turns.map((t) => t.watcher.eventBytes));
        const sender = median(turns.map((t) => t.sender.eventBytes));
        const total = median(turns.map((t) => t.sender.bytes));
        rows.push({
          name: `fan-out ${REPLY_CHARS}-char reply, ${DELTA_CHARS}-char deltas, ${pace}, ${kind.name} clients`,
          result: `events: watcher ${times(watcher)}, sender ${times(sender)} (${times(total)} with ack + res)`,
          target: kind.target,
        });
      }
    }
    for (const client of clients) client.ws.close();
  } finally {
    await stopChild(child);
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await fanoutRows())
    console.log(`${row.name}: ${row.result} (target ${row.target})`);
}
