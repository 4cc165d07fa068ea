// The gateway daemon as users run it: `node dist/bin/pincer.js gateway --port 0
// --auth token --token T` spawned as a child process, over a temp state dir whose config has two
// agents and a custom provider `fake` pointing at bench/fake-model-server.mjs (zero latency, in this
// process, on 127.0.0.1). Everything is loopback.
//
// Method.
//   time to ready — `performance.now()` just before spawn() to the stdout chunk that holds
//     "listening on ws://" (printed after the HTTP server listens); median of READY_RUNS runs, each with
//     a fresh state dir. Baseline: `node -e 0` spawned the same way, spawn to exit, median.
//   idle RSS — VmRSS from /proc/<pid>/status IDLE_MS after that line, no client connected; median of
//     the same runs. Each child gets SIGTERM (then SIGKILL if it lingers) before the next run starts.
//   health round trips/s — one more gateway; one WebSocket (`ws`), handshake as the tests do
//     (connect.challenge, then `connect`, protocol 3–4, token auth); then `health` requests pipelined
//     with at most WINDOW in flight for HEALTH_MS after a short warm-up; responses / seconds.
//   turn latency — on the same connection, `agent` {message, sessionKey, idempotencyKey}: wall time
//     from send to the final response (the second `res` on the request id, after the `accepted` ack),
//     turns one at a time over 10 session keys, WARMUP_TURNS then TURNS measured; p50 and p95.
//   turns/s over WS — one more gateway (lane cap = session count) and one connection, under
//     bench/workload.mjs's load (fake model in a child process at 50 ms); the rate as a share of the
//     floor (bench/floor.mjs, measured right before), and the gateway process's CPU ms per turn
//     (/proc/<pid>/stat). The load runs once unmeasured first (other sessions), so the fresh child
//     is as warm as the in-process sides (its first 1,000 turns spend ~1 ms each in JIT compiles).
// Children run without NODE_EXTRA_CA_CERTS (as bench/cli.mjs: it costs every node start ~40 ms to
// parse a CA bundle in this sandbox and is not Pincer's cost) and without other OPENCLAW_* variables.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { fakeModelsConfig, startFakeModelServer } from "./fake-model-server.mjs";
import { measureFloorLoad } from "./floor.mjs";
import { fmt } from "./measure.mjs";
import {
  LOAD_LABEL,
  LOAD_LATENCY_MS,
  LOAD_SESSIONS,
  measureLoad,
  processCpuMs,
  shareOfFloor,
  startFakeModelProcess,
} from "./workload.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const bin = fileURLToPath(new URL(`../${pkg.bin.pincer}`, import.meta.url));

const TOKEN = "bench-token-1";
const READY_RUNS = 11;
const IDLE_MS = 1500;
const READY_TIMEOUT_MS = 10_000;
const EXIT_TIMEOUT_MS = 5000;
const WINDOW = 32;
const HEALTH_WARMUP_MS = 300;
const HEALTH_MS = 2000;
const WARMUP_TURNS = 5;
const TURNS = 50;
const TURN_SESSIONS = 10;
const REQUEST_TIMEOUT_MS = 10_000;

function childEnv(home) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === "NODE_EXTRA_CA_CERTS" || key.startsWith("OPENCLAW_")) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, OPENCLAW_STATE_DIR: join(home, ".openclaw"), NO_COLOR: "1" };
}

/** A fresh home under `root` with a config of `agentIds` on the fake provider; returns its path. */
export function writeHome(root, name, baseUrl, agentIds = ["main", "ops"]) {
  const home = join(root, name);
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const config = {
    models: fakeModelsConfig(baseUrl),
    agents: {
      defaults: { model: "fake/m1", workspace: join(home, "workspace"), skipBootstrap: true },
      list: agentIds.map((id) => ({ id })),
    },
  };
  writeFileSync(join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  return home;
}

/** The p-th percentile of an ascending list. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The median of a list of numbers. */
export function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Resolves after `ms`. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** True if `promise` settles within `ms` (its timer cleared, so it never holds the process open). */
async function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Live children, killed by `stopChild` / `stopAll`. */
const children = new Set();

function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** SIGTERM (then SIGKILL if it lingers) and forget the child. */
export async function stopChild(child) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    if (!(await within(exited(child), EXIT_TIMEOUT_MS))) {
      child.kill("SIGKILL");
      await within(exited(child), EXIT_TIMEOUT_MS);
    }
  }
  children.delete(child);
}

async function stopAll() {
  await Promise.all([...children].map((child) => stopChild(child)));
}

/** Node/V8 flags for the gateway child from BENCH_GATEWAY_NODE_ARGS (space-separated), to compare
 *  heap settings: e.g. `--max-semi-space-size=8`. Empty by default. */
function nodeArgs() {
  return (process.env.BENCH_GATEWAY_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

/** Spawns a gateway; resolves `{ child, readyMs, url }` when its "listening on ws://" line is out. */
export function startGatewayProcess(home) {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [...nodeArgs(), bin, "gateway", "--port", "0", "--auth", "token", "--token", TOKEN],
    { env: childEnv(home), stdio: ["ignore", "pipe", "pipe"] },
  );
  children.add(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    let done = false;
    const finish = (error, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(value);
    };
    const timer = setTimeout(
      () => finish(new Error(`gateway not ready in ${READY_TIMEOUT_MS} ms: ${out}${err}`)),
      READY_TIMEOUT_MS,
    );
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (text) => {
      if (done) return; // keep draining the pipe, stop collecting
      out += text;
      const match = /listening on (ws:\/\/\S+)/.exec(out);
      if (match) finish(undefined, { child, readyMs: performance.now() - start, url: match[1] });
    });
    child.stderr.on("data", (text) => {
      if (!done) err += text;
    });
    child.once("error", (error) => finish(error));
    child.once("exit", (code, signal) =>
      finish(new Error(`gateway exited (${code ?? signal}) before ready: ${out}${err}`)),
    );
  });
}

/** Median spawn-to-exit time of `node -e 0` with the same env. */
async function nodeBaselineMs(home) {
  const times = [];
  for (let i = 0; i < 11; i++) {
    const start = performance.now();
    const child = spawn(process.execPath, ["-e", "0"], { env: childEnv(home), stdio: "ignore" });
    children.add(child);
    await within(exited(child), EXIT_TIMEOUT_MS);
    times.push(performance.now() - start);
    await stopChild(child);
  }
  return median(times);
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error(`no VmRSS for pid ${pid}`);
  return kb / 1024;
}

/** A ws client: connect handshake done, `send(method, params)` → first `res`, `onRes` hooks. */
export async function connectClient(url) {
  const ws = new WebSocket(url);
  const handlers = new Map(); // request id -> (frame) => void
  let challenge;
  const challenged = new Promise((resolve, reject) => {
    challenge = { resolve, reject };
  });
  ws.on("message", (data) => {
    const frame = JSON.parse(data.toString());
    if (frame.type === "event" && frame.event === "connect.challenge") challenge.resolve();
    else if (frame.type === "res") handlers.get(frame.id)?.(frame);
  });
  const closed = new Promise((resolve) => ws.once("close", resolve));
  ws.on("close", () => {
    challenge.reject(new Error("socket closed before connect.challenge"));
    for (const handler of handlers.values()) handler({ type: "res", ok: false, closed: true });
  });
  ws.on("error", (error) => challenge.reject(error));
  await withTimeout(challenged, "connect.challenge");
  let next = 0;
  /** Sends a request; `onFrame` sees every `res` for its id until it returns true. */
  const request = (method, params, onFrame) => {
    const id = `b${++next}`;
    return new Promise((resolve, reject) => {
      handlers.set(id, (frame) => {
        if (frame.closed) {
          handlers.delete(id);
          reject(new Error(`socket closed during ${method}`));
        } else if (onFrame(frame)) {
          handlers.delete(id);
          resolve(frame);
        }
      });
      ws.send(JSON.stringify({ type: "req", id, method, params }), (error) => {
        if (error) {
          handlers.delete(id);
          reject(error);
        }
      });
    });
  };
  const hello = await withTimeout(
    request(
      "connect",
      {
        minProtocol: 3,
        maxProtocol: 4,
        client: { id: "test", version: "1", platform: "linux", mode: "test" },
        auth: { token: TOKEN },
      },
      () => true,
    ),
    "connect",
  );
  if (!hello.ok) throw new Error(`connect refused: ${JSON.stringify(hello.error)}`);
  return {
    request,
    close: async () => {
      ws.close();
      await within(closed, 2000);
      ws.terminate();
    },
  };
}

/** Rejects (naming `what`) when `promise` takes longer than `ms`. */
export function withTimeout(promise, what, ms = REQUEST_TIMEOUT_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `health` responses per second, at most WINDOW in flight, for `ms` milliseconds. */
async function healthRate(client, ms) {
  let count = 0;
  const start = performance.now();
  const end = start + ms;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await withTimeout(
        client.request("health", {}, () => true),
        "health",
      );
      if (!res.ok) throw new Error(`health failed: ${JSON.stringify(res.error)}`);
      count += 1;
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, worker));
  return (count / (performance.now() - start)) * 1000;
}

/** One `agent` turn; resolves with its wall time in ms once the final response arrives. */
export async function agentTurn(client, sessionKey, message, idempotencyKey, timeoutMs) {
  const start = performance.now();
  const res = await withTimeout(
    client.request(
      "agent",
      { message, sessionKey, idempotencyKey },
      (frame) => !frame.ok || frame.payload?.status !== "accepted",
    ),
    "agent",
    timeoutMs,
  );
  const ms = performance.now() - start;
  if (!res.ok || res.payload?.status !== "ok") {
    throw new Error(`agent turn failed: ${JSON.stringify(res.error ?? res.payload)}`);
  }
  return ms;
}

/** Turns/s over one WS connection under the shared load, with the gateway's CPU ms per turn. */
export async function measureGatewayLoad(root) {
  const fake = await startFakeModelProcess({ latencyMs: LOAD_LATENCY_MS });
  let client;
  let child;
  try {
    const home = writeHome(root, "turns", fake.baseUrl);
    const configPath = join(home, ".openclaw", "openclaw.json");
    const config = JSON.parse(readFileSync(configPath, "utf8"));
    config.agents.defaults.maxConcurrent = LOAD_SESSIONS;
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    const gw = await startGatewayProcess(home);
    child = gw.child;
    client = await connectClient(gw.url);
    let next = 0;
    const pass = (name) => ({
      turn: (s, t, tag) =>
        agentTurn(client, `agent:main:${name}-${tag}-${s}`, `m${t}`, `bench-load-${++next}`),
      cpuMs: () => processCpuMs(gw.child.pid),
    });
    // The same load once unmeasured, on its own sessions: the child's JIT warms up as the
    // in-process sides measured before it (floor, runtime) already have.
    await measureLoad(pass("jit"));
    return await measureLoad(pass("run"));
  } finally {
    await client?.close().catch(() => {});
    if (child) await stopChild(child);
    await fake.close();
  }
}

/** Bench rows for `npm run bench`. */
export async function gatewayRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-gw-"));
  const fake = await startFakeModelServer({ latencyMs: 0, record: false });
  let client;
  try {
    const baseline = await nodeBaselineMs(writeHome(root, "baseline", fake.baseUrl));
    const ready = [];
    const rss = [];
    for (let i = 0; i < READY_RUNS; i++) {
      const gw = await startGatewayProcess(writeHome(root, `ready-${i}`, fake.baseUrl));
      ready.push(gw.readyMs);
      await sleep(IDLE_MS);
      rss.push(rssMb(gw.child.pid));
      await stopChild(gw.child);
    }

    const gw = await startGatewayProcess(writeHome(root, "load", fake.baseUrl));
    client = await connectClient(gw.url);
    await healthRate(client, HEALTH_WARMUP_MS);
    const health = await healthRate(client, HEALTH_MS);

    const turns = [];
    for (let i = 0; i < WARMUP_TURNS + TURNS; i++) {
      const key = `agent:main:bench-${i % TURN_SESSIONS}`;
      const ms = await agentTurn(client, key, `message ${i}`, `bench-run-${i}`);
      if (i >= WARMUP_TURNS) turns.push(ms);
    }
    turns.sort((a, b) => a - b);
    const floorLoad = await measureFloorLoad();
    const matchedLoad = await measureFloorLoad({ matched: true });
    const load = await measureGatewayLoad(root);

    const turnMs = (p) => `${percentile(turns, p).toFixed(2)} ms`;
    return [
      {
        name: "node -e 0 (baseline process, spawn to exit)",
        result: `${baseline.toFixed(0)} ms`,
        target: "",
      },
      {
        name: `gateway time to ready, 2 agents (median of ${READY_RUNS})`,
        result: `${median(ready).toFixed(0)} ms (min ${Math.min(...ready).toFixed(0)}, max ${Math.max(...ready).toFixed(0)})`,
        target: "< 120 ms",
      },
      {
        name: `gateway idle RSS, ${IDLE_MS / 1000} s after ready (median of ${READY_RUNS})`,
        result: `${median(rss).toFixed(1)} MB (min ${Math.min(...rss).toFixed(1)}, max ${Math.max(...rss).toFixed(1)})`,
        target: "< 60 MB",
      },
      {
        name: `gateway health round trips/s, 1 connection, ${WINDOW} in flight`,
        result: `${fmt(health)}/s`,
        target: "",
      },
      {
        name: `gateway agent turn p50, zero-latency model (${TURNS} turns)`,
        result: turnMs(50),
        target: "",
      },
      {
        name: `gateway agent turn p95, zero-latency model (${TURNS} turns)`,
        result: turnMs(95),
        target: "",
      },
      {
        name: `gateway turns/s over WS, 1 connection, ${LOAD_LABEL}`,
        result:
          `${fmt(load.rate)}/s = ${shareOfFloor(load.rate, floorLoad.rate, matchedLoad.rate)} ` +
          `(gateway CPU ${load.cpuMsPerTurn.toFixed(2)} ms/turn)`,
        target: ">= 85% of matched floor",
      },
    ];
  } finally {
    await client?.close().catch(() => {});
    await stopAll();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}
