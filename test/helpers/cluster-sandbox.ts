// A cluster for the queue tests: a private nats-server, the fake model (echoing each turn's prompt,
// or holding prompts containing "slow" until released), an in-process gateway with `cluster.queue`,
// worker processes spawned from dist (`pincer worker`), and a lean WS RPC client for many turns.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
import { type FakeOpenAI, type RecordedRequest, startFakeOpenAI } from "./fake-openai.js";
import { waitUntil } from "./gateway-child.js";
import { connectParams, TEST_TOKEN } from "./gateway-sandbox.js";
import { type NatsServer, startNatsServer } from "./nats-server.js";
import { fakeProviderConfig } from "./runtime-sandbox.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pincerBin = join(
  root,
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer,
);

/** The text of a request's last user message. */
export function lastUserText(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.findLast((message) => message.role === "user");
  if (!last) return "";
  if (typeof last.content === "string") return last.content;
  return (last.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("");
}

/** The tool results (role "tool" messages) the model was sent in `request`. */
export function toolResults(request: RecordedRequest | undefined): string[] {
  const messages = (request?.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  return messages
    .filter((message) => message.role === "tool")
    .map((message) =>
      typeof message.content === "string" ? message.content : JSON.stringify(message.content),
    );
}

/** How many workers the gateway's status lists now. */
export async function workersSeen(client: RpcClient): Promise<number> {
  const status = await client.request("status");
  return status.payload?.cluster?.queue?.workers?.length ?? 0;
}

/** Waits until the gateway's status lists `count` workers (30 s bound: a worker starts a process). */
export function waitForWorkers(client: RpcClient, count = 1): Promise<void> {
  return waitUntil(
    async () => (await workersSeen(client)) === count,
    `${count} worker(s) in status`,
    30_000,
  );
}

/** A worker process and what it printed. */
export interface WorkerChild {
  child: ChildProcess;
  out: string;
  exited: Promise<number | null>;
  stateDir: string;
}

/** A running cluster sandbox. */
export interface ClusterSandbox {
  nats: NatsServer;
  fake: FakeOpenAI;
  gw: GatewayHandle;
  home: string;
  configPath: string;
  /** Releases every held "slow" prompt (later ones answer at once until hold()). */
  release(): void;
  /** Holds "slow" prompts again. */
  hold(): void;
  /** A `pincer worker` (`concurrency` null: no --concurrency flag, the config's cap). */
  spawnWorker(concurrency?: number | null): WorkerChild;
  kill(worker: WorkerChild): Promise<void>;
  close(): Promise<void>;
}

/** Starts NATS, the fake model and a gateway whose runs go to workers. */
export async function createClusterSandbox(
  params: {
    partitions?: number;
    ackWaitMs?: number;
    stream?: string;
    /** Sessions in PostgreSQL (shared by the gateway and the workers). */
    pgUrl?: string;
    /** Stop NATS before the gateway starts (start it again with `nats.start()`). */
    natsDown?: boolean;
    /** The models block (default: the fake provider, unpriced). */
    models?: (baseUrl: string) => OpenClawConfig["models"];
    /** `agents.defaults.budget`. */
    budget?: Record<string, unknown>;
    /** The top-level `tools` block (e.g. `alsoAllow: ["nodes"]`). */
    tools?: OpenClawConfig["tools"];
    /** Extra top-level config (channels, messages) and the gateway's channel loaders. */
    extraConfig?: Partial<OpenClawConfig>;
    channels?: StartGatewayOptions["channels"];
    /** How long the gateway's exec approvals wait (default 120 s). */
    execApprovalTimeoutMs?: number;
  } = {},
): Promise<ClusterSandbox> {
  const nats = await startNatsServer();
  // "slow" prompts wait on the current gate until release() (later ones answer at once).
  let release: () => void = () => {};
  let held: Promise<void> | undefined = new Promise<void>((resolve) => {
    release = resolve;
  });
  const fake = await startFakeOpenAI({
    fallback: (request) => {
      const text = lastUserText(request);
      const answer = { kind: "text" as const, text: `echo: ${text}`, chunks: 3 };
      return text.includes("slow") && held ? { kind: "gate", until: held, answer } : answer;
    },
  });
  const home = mkdtempSync(join(tmpdir(), "pincer-cluster-"));
  const stateDir = join(home, "gateway");
  const configPath = join(home, "openclaw.json");
  const config: OpenClawConfig = {
    models: params.models ? params.models(fake.baseUrl) : fakeProviderConfig(fake.baseUrl),
    gateway: { auth: { mode: "token", token: TEST_TOKEN } },
    ...(params.tools ? { tools: params.tools } : {}),
    agents: {
      list: [{ id: "main" }],
      defaults: {
        model: "fake/m1",
        workspace: join(home, "workspace"),
        maxConcurrent: 4,
        ...(params.budget ? { budget: params.budget } : {}),
      },
    },
    cluster: {
      queue: {
        kind: "nats",
        url: nats.url,
        stream: params.stream ?? "PINCER_TEST",
        subjectPrefix: "ptest",
        partitions: params.partitions ?? 16,
        ackWaitMs: params.ackWaitMs ?? 2000,
      },
      ...(params.pgUrl ? { store: { kind: "postgres" as const, url: params.pgUrl } } : {}),
    },
    ...params.extraConfig,
  };
  writeFileAtomic(configPath, JSON.stringify(config, null, 2));
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir, OPENCLAW_CONFIG_PATH: configPath };
  if (params.natsDown) await nats.stop();
  const gw = await startGateway({
    env,
    port: 0,
    watchConfig: false,
    ...(params.channels ? { channels: params.channels } : {}),
    ...(params.execApprovalTimeoutMs
      ? { execApprovalTimeoutMs: params.execApprovalTimeoutMs }
      : {}),
  });
  const workers = new Set<WorkerChild>();
  let count = 0;
  const kill = async (worker: WorkerChild) => {
    if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
    await worker.exited;
    workers.delete(worker);
  };
  return {
    nats,
    fake,
    gw,
    home,
    configPath,
    release: () => {
      release();
      held = undefined;
    },
    hold: () => {
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    spawnWorker(concurrency: number | null = 4) {
      const workerState = join(home, `worker-${++count}`);
      const flags = concurrency === null ? [] : ["--concurrency", `${concurrency}`];
      const child = spawn(process.execPath, [pincerBin, "worker", ...flags], {
        env: {
          PATH: process.env.PATH,
          HOME: home,
          OPENCLAW_CONFIG_PATH: configPath,
          OPENCLAW_STATE_DIR: workerState,
          PINCER_WORKER_DEBUG: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const worker: WorkerChild = {
        child,
        out: "",
        exited: new Promise((resolve) => child.once("exit", resolve)),
        stateDir: workerState,
      };
      child.stdout?.on("data", (chunk) => {
        worker.out += chunk;
      });
      child.stderr?.on("data", (chunk) => {
        worker.out += chunk;
      });
      workers.add(worker);
      return worker;
    },
    kill,
    close: async () => {
      release();
      await Promise.all([...workers].map((worker) => kill(worker)));
      await gw.close("test done");
      await fake.close();
      await nats.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A lean RPC client: final responses by request id, events to listeners (no frame history). */
export class RpcClient {
  private next = 0;
  private readonly waiting = new Map<
    string,
    { resolve: (frame: Frame) => void; skipAck: boolean }
  >();
  private readonly listeners = new Set<(frame: Frame) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      if (frame.type === "res") {
        const waiter = this.waiting.get(String(frame.id));
        const accepted = (frame.payload as { status?: string } | undefined)?.status === "accepted";
        if (!waiter || (waiter.skipAck && frame.ok && accepted)) return;
        this.waiting.delete(String(frame.id));
        waiter.resolve(frame);
      } else {
        for (const listener of this.listeners) listener(frame);
      }
    });
  }

  /** Opens a socket and completes the handshake. */
  static async connect(url: string): Promise<RpcClient> {
    const ws = new WebSocket(url);
    const client = new RpcClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once("error", reject);
      client.listeners.add(function onChallenge(frame) {
        if (frame.event !== "connect.challenge") return;
        client.listeners.delete(onChallenge);
        resolve();
      });
    });
    const hello = await client.request("connect", connectParams());
    if (!hello.ok) throw new Error(`connect refused: ${JSON.stringify(hello.error)}`);
    return client;
  }

  /** A request's response (`final`: skip an `accepted` ack and wait for the final). */
  request(method: string, params?: unknown, options: { final?: boolean } = {}): Promise<Frame> {
    const id = `q${++this.next}`;
    const done = new Promise<Frame>((resolve) => {
      this.waiting.set(id, { resolve, skipAck: options.final === true });
    });
    this.ws.send(JSON.stringify({ type: "req", id, method, ...(params ? { params } : {}) }));
    return done;
  }

  /** Calls `listener` with every event frame until the returned function is called. */
  onEvent(listener: (frame: Frame) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes the socket. */
  close(): void {
    this.ws.close();
  }
}

/** One frame (loosely typed). */
// biome-ignore lint/suspicious/noExplicitAny: tests read protocol payloads without a schema type.
export type Frame = Record<string, any>;
