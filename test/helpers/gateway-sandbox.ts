// A real gateway on port 0 with a temp state dir and the fake model server, plus a small ws test
// client (raw frames, request/response by id, event waits).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import {
  type GatewayHandle,
  type StartGatewayOptions,
  startGateway,
} from "../../src/gateway/index.js";
import { writeFileAtomic } from "../../src/lib/atomic-write.js";
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import { type FakeOpenAI, startFakeOpenAI } from "./fake-openai.js";
import { fakeProviderConfig } from "./runtime-sandbox.js";

/** Test token of sandboxes in token mode. */
export const TEST_TOKEN = "test-token-123";

/** A loosely typed payload, read field by field in assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests read protocol payloads without a schema type.
export type Loose = Record<string, any>;

/** The payload of a frame, loosely typed. */
export function payloadOf(frame: Frame): Loose {
  return frame.payload as Loose;
}

/** One frame as received. */
export type Frame = Record<string, unknown> & { type: string };

/** A raw ws client that records every frame. */
export class TestClient {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];
  private next = 0;

  constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    ws.on("error", () => {});
  }

  /** Waits until a frame matches (default 15 s: generous for a loaded machine). */
  async waitFor(match: (frame: Frame) => boolean, timeoutMs = 15_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(match);
      if (found) return found;
      if (Date.now() > deadline || this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(`no matching frame; got ${JSON.stringify(this.frames.slice(-5))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends a raw text frame. */
  sendRaw(text: string | Buffer): void {
    this.ws.send(text);
  }

  /** Sends a request and resolves with its first response frame. */
  async request(method: string, params?: unknown, timeoutMs?: number): Promise<Frame> {
    const id = `r${++this.next}`;
    this.ws.send(
      JSON.stringify({ type: "req", id, method, ...(params === undefined ? {} : { params }) }),
    );
    return this.waitFor((frame) => frame.type === "res" && frame.id === id, timeoutMs);
  }

  /** Every response frame received for a request id. */
  responses(id: string): Frame[] {
    return this.frames.filter((frame) => frame.type === "res" && frame.id === id);
  }

  /** Events received with this name. */
  events(name: string): Frame[] {
    return this.frames.filter((frame) => frame.type === "event" && frame.event === name);
  }

  /** Closes the socket. */
  close(): void {
    this.ws.close();
  }
}

/** Sends `chat.send` to session `main` (unless another is named) and waits for the run's `chat`
 *  final, aborted or error event: its ack and event payloads. */
export async function chatSendAndWait(
  client: TestClient,
  params: { message: string; runId: string; sessionKey?: string },
): Promise<{ ack: Loose; ackOk: boolean; event: Loose }> {
  const ack = await client.request("chat.send", {
    sessionKey: params.sessionKey ?? "main",
    message: params.message,
    idempotencyKey: params.runId,
  });
  const final = await client.waitFor(
    (f) =>
      f.event === "chat" &&
      payloadOf(f).runId === params.runId &&
      ["final", "aborted", "error"].includes(payloadOf(f).state),
  );
  return { ack: payloadOf(ack), ackOk: ack.ok === true, event: payloadOf(final) };
}

let chatSends = 0;

/** One `chat.send` on the main session with a fresh runId, its ack checked: the final (or
 *  aborted/error) `chat` event and its text. */
export async function sendChat(
  client: TestClient,
  message: string,
): Promise<{ runId: string; ack: Loose; event: Loose; text: string }> {
  const runId = `chat-${++chatSends}`;
  const { ack, ackOk, event } = await chatSendAndWait(client, { message, runId });
  if (!ackOk)
    throw new Error(`chat.send ${JSON.stringify(message)} was refused: ${JSON.stringify(ack)}`);
  return { runId, ack, event, text: chatEventText(event) };
}

/** The text of a `chat` event's message (its text parts joined). */
export function chatEventText(event: Loose): string {
  const content = (event.message?.content ?? []) as Array<{ text?: string }>;
  return content.map((part) => part.text ?? "").join("");
}

/** Opens a socket and waits for connect.challenge. */
export async function openClient(url: string): Promise<TestClient> {
  const ws = new WebSocket(url);
  const client = new TestClient(ws);
  await client.waitFor((frame) => frame.type === "event" && frame.event === "connect.challenge");
  return client;
}

/** Connect params of a test client (protocol 3–4, token auth, every operator scope). */
export function connectParams(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    minProtocol: 3,
    maxProtocol: 4,
    client: { id: "test", version: "1.0.0", platform: "linux", mode: "test" },
    role: "operator",
    scopes: ["operator.admin", "operator.read", "operator.write"],
    auth: { token: TEST_TOKEN },
    ...overrides,
  };
}

/** A running gateway sandbox. */
export interface GatewaySandbox {
  gw: GatewayHandle;
  fake: FakeOpenAI;
  home: string;
  stateDir: string;
  configPath: string;
  env: Record<string, string>;
  /** Opens a client and completes the handshake (throws if refused). */
  connect(overrides?: Record<string, unknown>): Promise<TestClient>;
  close(): Promise<void>;
}

/** Starts the fake model server and a gateway (token auth) over a one-agent config. */
export async function createGatewaySandbox(
  params: {
    config?: (baseUrl: string) => Partial<OpenClawConfig>;
    options?: Partial<StartGatewayOptions>;
  } = {},
): Promise<GatewaySandbox> {
  const fake = await startFakeOpenAI();
  const home = mkdtempSync(join(tmpdir(), "pincer-gw-"));
  const stateDir = join(home, ".openclaw");
  const configPath = join(stateDir, "openclaw.json");
  const extra = params.config?.(fake.baseUrl) ?? {};
  const config: OpenClawConfig = {
    models: fakeProviderConfig(fake.baseUrl),
    gateway: { auth: { mode: "token", token: TEST_TOKEN } },
    ...extra,
    agents: {
      list: [{ id: "main" }],
      ...extra.agents,
      defaults: { model: "fake/m1", ...extra.agents?.defaults, workspace: join(home, "workspace") },
    },
  };
  writeFileAtomic(configPath, JSON.stringify(config, null, 2));
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  const gw = await startGateway({ env, port: 0, watchConfig: false, ...params.options });
  return {
    gw,
    fake,
    home,
    stateDir,
    configPath,
    env,
    connect: async (overrides) => {
      const client = await openClient(gw.url);
      const res = await client.request("connect", connectParams(overrides));
      if (!res.ok) throw new Error(`connect refused: ${JSON.stringify(res.error)}`);
      return client;
    },
    close: async () => {
      await gw.close("test done");
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A loopback port that was free a moment ago and has nothing listening (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const pincerBin = join(
  root,
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer,
);

/** `pincer gateway ...` from the built dist as a child process, its stdout collected in `out`. */
export function spawnGateway(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [pincerBin, "gateway", ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const proc = {
    child,
    out: "",
    exited: new Promise<number | null>((resolve) => child.once("exit", resolve)),
    /** Polls stdout (up to 5 s) for the ready line; its ws:// URL, if it came. */
    async waitForUrl(): Promise<string | undefined> {
      for (let i = 0; i < 200 && !/listening on ws:\/\/\S+/.test(proc.out); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return /listening on (ws:\/\/\S+)/.exec(proc.out)?.[1];
    },
  };
  child.stdout.on("data", (chunk) => {
    proc.out += chunk;
  });
  return proc;
}
