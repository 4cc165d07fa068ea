// Runs on workers over NATS JetStream (cluster.queue), against the built package: a private
// nats-server (`-js`, temp store, free port), the bench's zero-latency fake model in a worker
// thread, a gateway child (`pincer gateway`) and `pincer worker` children. Skipped with a notice
// when /usr/sbin/nats-server is missing.
//
// Method.
//   queue hop — `agent` turns one at a time over 10 session keys (WARMUP then TURNS measured), wall
//     time from send to the final response: p50 on an in-process gateway (no cluster) and on a
//     gateway with one worker; the difference is what publishing to JetStream, the worker's pull,
//     its session load and the events/result back over NATS add to a turn.
//   turns/s with 1 vs 2 workers — LOAD_SESSIONS sessions × LOAD_TURNS turns sent at once (each
//     session's turns queue behind each other in its partition), workers at concurrency 8; turns /
//     wall seconds, and the 2-worker rate as a ratio of the 1-worker rate. On a 2-core machine the
//     gateway, nats-server and both workers share the cores: the ratio shows the overhead of the
//     split, not a 2-host speed-up.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startFakeModelServerInWorker } from "./fake-model-server.mjs";
import {
  agentTurn,
  connectClient,
  percentile,
  startGatewayProcess,
  stopChild,
  writeHome,
} from "./gateway.mjs";
import { fmt } from "./measure.mjs";

const NATS_BIN = "/usr/sbin/nats-server";
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const bin = fileURLToPath(new URL(`../${pkg.bin.pincer}`, import.meta.url));
const WARMUP = 20;
const TURNS = 100;
const LOAD_SESSIONS = 64;
const LOAD_TURNS = 8;
const CONCURRENCY = 8;

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startNats(root) {
  const port = await freePort();
  const child = spawn(
    NATS_BIN,
    ["-js", "-sd", join(root, "nats"), "-a", "127.0.0.1", "-p", `${port}`],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let log = "";
  child.stderr.on("data", (chunk) => {
    log += chunk;
  });
  for (let i = 0; i < 400 && !/Server is ready/.test(log); i++)
    await new Promise((resolve) => setTimeout(resolve, 25));
  if (!/Server is ready/.test(log)) throw new Error(`nats-server did not start: ${log}`);
  return { child, url: `nats://127.0.0.1:${port}` };
}

function clusterHome(root, name, baseUrl, natsUrl) {
  const home = writeHome(root, name, baseUrl, ["main"]);
  const configPath = join(home, ".openclaw", "openclaw.json");
  const config = JSON.parse(readFileSync(configPath, "utf8"));
  if (natsUrl) {
    config.cluster = {
      queue: {
        kind: "nats",
        url: natsUrl,
        stream: `BENCH_${name}`,
        subjectPrefix: `bench_${name}`,
      },
    };
  }
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return { home, configPath };
}

function startWorker(home, configPath, index) {
  const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" };
  env.OPENCLAW_CONFIG_PATH = configPath;
  env.OPENCLAW_STATE_DIR = join(home, `worker-${index}`);
  const child = spawn(process.execPath, [bin, "worker", "--concurrency", `${CONCURRENCY}`], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const ready = new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      out += chunk;
      if (out.includes("worker ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited (${code}): ${out}`)));
  });
  return { child, ready };
}

async function sequentialP50(client, prefix) {
  const times = [];
  for (let i = 0; i < WARMUP + TURNS; i++) {
    const ms = await agentTurn(
      client,
      `${prefix}-${i % 10}`,
      `turn ${i}`,
      `${prefix}-${i}`,
      30_000,
    );
    if (i >= WARMUP) times.push(ms);
  }
  return percentile(
    times.sort((a, b) => a - b),
    50,
  );
}

async function loadRate(client, prefix) {
  const start = performance.now();
  const turns = [];
  for (let s = 0; s < LOAD_SESSIONS; s++) {
    for (let t = 0; t < LOAD_TURNS; t++) {
      turns.push(agentTurn(client, `${prefix}-s${s}`, `t${t}`, `${prefix}-${s}-${t}`, 120_000));
    }
  }
  await Promise.all(turns);
  return (turns.length / (performance.now() - start)) * 1000;
}

/** One gateway (with `workers` worker children when natsUrl is set): the measurement's result. */
async function withGateway(params, measure) {
  const { root, name, baseUrl, natsUrl, workers = 0 } = params;
  const { home, configPath } = clusterHome(root, name, baseUrl, natsUrl);
  const gateway = await startGatewayProcess(home);
  const started = Array.from({ length: workers }, (_, i) => startWorker(home, configPath, i));
  try {
    await Promise.all(started.map((worker) => worker.ready));
    const client = await connectClient(gateway.url);
    try {
      // Unmeasured warm-up of the whole path (JIT, first-turn module loads on every worker).
      await loadRate(client, `${name}-warm`);
      return await measure(client);
    } finally {
      client.close();
    }
  } finally {
    await Promise.all(started.map((worker) => stopChild(worker.child)));
    await stopChild(gateway.child);
  }
}

/** The cluster rows of `npm run bench`. */
export async function clusterRows() {
  if (!existsSync(NATS_BIN)) {
    return [
      {
        name: "cluster (NATS workers)",
        result: `skipped: ${NATS_BIN} missing (apt-get install nats-server)`,
      },
    ];
  }
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-cluster-"));
  const fake = await startFakeModelServerInWorker({ latencyMs: 0 });
  const nats = await startNats(root);
  try {
    const base = { root, baseUrl: fake.baseUrl };
    const inProcess = await withGateway({ ...base, name: "local" }, (client) =>
      sequentialP50(client, "local"),
    );
    const one = await withGateway(
      { ...base, name: "one", natsUrl: nats.url, workers: 1 },
      async (client) => ({
        p50: await sequentialP50(client, "one"),
        rate: await loadRate(client, "one"),
      }),
    );
    const two = await withGateway(
      { ...base, name: "two", natsUrl: nats.url, workers: 2 },
      (client) => loadRate(client, "two"),
    );
    const load = `${LOAD_SESSIONS} sessions × ${LOAD_TURNS} turns, concurrency ${CONCURRENCY}/worker`;
    return [
      {
        name: "cluster: queue hop per turn (p50, 1 worker vs in-process)",
        result: `+${fmt(one.p50 - inProcess)} ms (${fmt(one.p50)} vs ${fmt(inProcess)} ms)`,
      },
      { name: `cluster: turns/s, 1 worker (${load})`, result: fmt(one.rate) },
      { name: `cluster: turns/s, 2 workers (${load})`, result: fmt(two) },
      { name: "cluster: 2 workers / 1 worker", result: `${(two / one.rate).toFixed(2)}×` },
    ];
  } finally {
    await stopChild(nats.child);
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await clusterRows()) console.log(`${row.name}: ${row.result}`);
}
