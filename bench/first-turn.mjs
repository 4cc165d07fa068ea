// The gateway's first turn after start and its control traffic under load, on the built daemon
// (`node dist/bin/pincer.js gateway`, spawned as bench/gateway.mjs does, one agent on the zero-latency
// fake model, which runs in a worker thread).
//
// Method.
//   first turn at ready — spawn, connect as soon as the "listening on ws://" line is out, send one
//     `agent` turn; its wall time from send to the final response (connect not included); median of
//     RUNS fresh gateways (fresh state dirs).
//   first turn 1 s after ready — the same, the connection opened 1 s after the ready line.
//   warm turn — after those, WARM_TURNS more turns on the same gateway (new sessions), median.
//   health under load — one more gateway, warmed up; LOAD_TURNS turns sent at once over LOAD_SESSIONS
//     sessions on one connection while a second connection sends `health` one at a time; the largest
//     health round trip seen while turns were still running.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeModelServerInWorker } from "./fake-model-server.mjs";
import {
  agentTurn,
  connectClient,
  median,
  sleep,
  startGatewayProcess,
  stopChild,
  withTimeout,
  writeHome,
} from "./gateway.mjs";

const RUNS = 5;
const WARM_TURNS = 20;
const LOAD_TURNS = 100;
const LOAD_SESSIONS = 50;

let nextTurn = 0;

/** One `agent` turn; its wall time in ms from send to the final response. */
function turnMs(client, sessionKey) {
  const id = `first-turn-${++nextTurn}`;
  return agentTurn(client, sessionKey, `message ${id}`, id, 30_000);
}

async function firstTurn(home, delayMs, warmTurns = 0) {
  const gw = await startGatewayProcess(home);
  let client;
  try {
    if (delayMs > 0) await sleep(delayMs);
    client = await connectClient(gw.url);
    const first = await turnMs(client, "agent:main:first");
    const warm = [];
    for (let i = 0; i < warmTurns; i++) warm.push(await turnMs(client, `agent:main:warm-${i}`));
    return { first, warm };
  } finally {
    await client?.close().catch(() => {});
    await stopChild(gw.child);
  }
}

/** The largest `health` round trip while LOAD_TURNS turns run. */
async function healthUnderLoad(home) {
  const gw = await startGatewayProcess(home);
  let turns;
  let control;
  try {
    turns = await connectClient(gw.url);
    control = await connectClient(gw.url);
    for (let i = 0; i < 5; i++) await turnMs(turns, `agent:main:load-warm-${i}`);
    let running = true;
    const load = Promise.all(
      Array.from({ length: LOAD_TURNS }, (_, i) =>
        turnMs(turns, `agent:main:load-${i % LOAD_SESSIONS}`),
      ),
    ).finally(() => {
      running = false;
    });
    let max = 0;
    let samples = 0;
    while (running) {
      const start = performance.now();
      const res = await withTimeout(
        control.request("health", {}, () => true),
        "health",
      );
      if (!res.ok) throw new Error(`health failed: ${JSON.stringify(res.error)}`);
      if (running) {
        max = Math.max(max, performance.now() - start);
        samples += 1;
      }
    }
    await load;
    return { max, samples };
  } finally {
    await turns?.close().catch(() => {});
    await control?.close().catch(() => {});
    await stopChild(gw.child);
  }
}

/** Bench rows for `npm run bench`. */
export async function firstTurnRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-first-"));
  const fake = await startFakeModelServerInWorker({ latencyMs: 0 });
  try {
    const atReady = [];
    const later = [];
    let warm = [];
    for (let i = 0; i < RUNS; i++) {
      atReady.push(
        (await firstTurn(writeHome(root, `ready-${i}`, fake.baseUrl, ["main"]), 0)).first,
      );
      const run = await firstTurn(
        writeHome(root, `later-${i}`, fake.baseUrl, ["main"]),
        1000,
        i === 0 ? WARM_TURNS : 0,
      );
      later.push(run.first);
      if (run.warm.length) warm = run.warm;
    }
    const warmMs = median(warm);
    const health = await healthUnderLoad(writeHome(root, "load", fake.baseUrl, ["main"]));
    const ratio = (ms) => `${ms.toFixed(1)} ms (${(ms / warmMs).toFixed(1)}× warm)`;
    return [
      {
        name: `gateway first turn at ready, p50 of ${RUNS} starts`,
        result: ratio(median(atReady)),
        target: "",
      },
      {
        name: `gateway first turn 1 s after ready, p50 of ${RUNS} starts`,
        result: ratio(median(later)),
        target: "≤ 2× warm",
      },
      {
        name: `gateway warm turn p50 (${WARM_TURNS} turns)`,
        result: `${warmMs.toFixed(1)} ms`,
        target: "",
      },
      {
        name: `gateway max health latency, ${LOAD_TURNS} turns running`,
        result: `${health.max.toFixed(1)} ms (${health.samples} samples)`,
        target: "< 100 ms",
      },
    ];
  } finally {
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

// `node bench/first-turn.mjs`: these rows alone.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  for (const row of await firstTurnRows()) console.log(`${row.name}: ${row.result}`);
}
