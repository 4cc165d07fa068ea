// Embedded agent runtime: the gateway's own cost of a turn, and throughput under load,
// with the real runAgent (lanes, session store, transcript, prompt, pi-ai's OpenAI client) against
// bench/fake-model-server.mjs on 127.0.0.1.
//
// Overhead row — method. The fake server runs in this thread, so its `performance.now()` stamps
// share our clock. Turns run one at a time (nothing else on the event loop). For each turn:
//   total    = wall time from calling runAgent(...) to its `result` settling;
//   model    = server-side window from the request's arrival (its headers parsed; the body's first
//              chunk follows ~0.04 ms later) to the last SSE byte handed to the socket (`res.end`),
//              with zero model latency (~0.3 ms of the server's own parsing and writing);
//   overhead = total − model
//            = before (runAgent call → request at the model: lanes, session, transcript, prompt,
//              credentials, pi-ai/OpenAI client, connection)
//            + after (last reply byte → RunResult: SSE parsing, transcript append, session update,
//              the durable flush with its fsyncs, reply processing).
// Loopback transit of the first and last bytes counts as overhead (conservative). Sessions rotate
// over 20 keys after a 20-turn warm-up, so each measured turn loads a short real history. The rows
// also show the p50/p95 of `before` and `after` on their own (they need not add up at p95).
//
// Throughput row: 100 sessions × 10 sequential turns each, all sessions at once, model latency
// 50 ms, lane cap (`agents.defaults.maxConcurrent`) 100. Ideal = 100 turns in flight / 0.05 s =
// 2,000 turns/s (1,000 turns in 0.5 s); the row reports turns/s, its share of that ideal, and the
// main thread's busy time per turn (at the ideal rate the budget is 0.5 ms). The fake model runs in
// a worker thread here, so its CPU is not charged to the gateway, as with a real remote model.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfig } from "../dist/config/index.js";
import { writeFileAtomic } from "../dist/lib/atomic-write.js";
import { createLaneScheduler } from "../dist/runtime/lanes/index.js";
import { createRunCaches, runAgent } from "../dist/runtime/run/index.js";
import { ProcessRegistry } from "../dist/runtime/tools/index.js";
import { acquireStateDirLock, SessionStoreRegistry } from "../dist/sessions/index.js";
import {
  fakeModelsConfig,
  startFakeModelServer,
  startFakeModelServerInWorker,
} from "./fake-model-server.mjs";
import { fmt } from "./measure.mjs";

const WARMUP_TURNS = 20;
const OVERHEAD_TURNS = 200;
const OVERHEAD_SESSIONS = 20;
const LOAD_SESSIONS = 100;
const LOAD_TURNS = 10;
const LOAD_LATENCY_MS = 50;

/** A runtime with one agent on `fake/m1`, in a fresh temp state dir. */
function createRuntime(baseUrl, maxConcurrent) {
  const home = mkdtempSync(join(tmpdir(), "pincer-bench-runtime-"));
  const stateDir = join(home, ".openclaw");
  const config = {
    models: fakeModelsConfig(baseUrl),
    agents: {
      defaults: {
        model: "fake/m1",
        workspace: join(home, "workspace"),
        // No bootstrap files in the workspace, so none are injected: a small prompt.
        skipBootstrap: true,
        maxConcurrent,
      },
      list: [{ id: "main" }],
    },
  };
  writeFileAtomic(join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  const loaded = loadConfig({ env });
  if (!loaded.valid) throw new Error(`bench config invalid: ${JSON.stringify(loaded.issues)}`);
  const lock = acquireStateDirLock({ stateDir, command: "bench" });
  const stores = new SessionStoreRegistry({
    cfg: loaded.resolved.config,
    paths: loaded.paths,
    lock,
  });
  const lanes = createLaneScheduler({
    maxConcurrent: loaded.config.agents?.defaults?.maxConcurrent ?? maxConcurrent,
  });
  const jobs = new ProcessRegistry();
  // The long-lived runtime objects, built as RunResources builds them (caches included).
  const caches = createRunCaches();
  const deps = { config: loaded.resolved, paths: loaded.paths, env, stores, lanes, jobs, caches };
  return {
    deps,
    close: async () => {
      await lanes.idle();
      await jobs.stopAll();
      await stores.closeAll();
      lock.release();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** One turn; throws unless the model answered. */
async function turn(deps, sessionKey, message) {
  const result = await runAgent(deps, { sessionKey, message }).result;
  if (result.status !== "ok")
    throw new Error(`bench turn failed: ${result.error ?? result.status}`);
  return result;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Per-turn gateway overhead with a zero-latency model, turns one at a time. Returns sorted arrays in
 * ms: `total` overhead, and its two parts `before` (runAgent call → request at the model) and
 * `after` (last reply byte → result).
 */
export async function measureOverhead({ turns = OVERHEAD_TURNS } = {}) {
  const fake = await startFakeModelServer({ latencyMs: 0 });
  const runtime = createRuntime(fake.baseUrl, 4);
  try {
    const key = (i) => `agent:main:bench-${i % OVERHEAD_SESSIONS}`;
    for (let i = 0; i < WARMUP_TURNS; i++) await turn(runtime.deps, key(i), `warm-up ${i}`);
    const total = [];
    const before = [];
    const after = [];
    for (let i = 0; i < turns; i++) {
      const seen = fake.requests.length;
      const start = performance.now();
      await turn(runtime.deps, key(i), `message ${i}`);
      const end = performance.now();
      if (fake.requests.length !== seen + 1) throw new Error("expected one model request a turn");
      const { arrivedAt, lastByteAt } = fake.requests[seen];
      before.push(arrivedAt - start);
      after.push(end - lastByteAt);
      total.push(end - start - (lastByteAt - arrivedAt));
    }
    const sort = (list) => list.sort((a, b) => a - b);
    return { total: sort(total), before: sort(before), after: sort(after) };
  } finally {
    await runtime.close();
    await fake.close();
  }
}

/**
 * Turns per second: `LOAD_SESSIONS` sessions at once, each `LOAD_TURNS` sequential turns, the model
 * (in a worker thread) answering after `LOAD_LATENCY_MS`. Also returns the main thread's busy time
 * per turn (event-loop utilization), the figure that bounds the rate once it exceeds 1/ideal.
 */
export async function measureThroughput() {
  const fake = await startFakeModelServerInWorker({ latencyMs: LOAD_LATENCY_MS });
  const runtime = createRuntime(fake.baseUrl, LOAD_SESSIONS);
  try {
    const session = async (s, turns, tag) => {
      for (let t = 0; t < turns; t++) await turn(runtime.deps, `agent:main:${tag}-${s}`, `m${t}`);
    };
    const all = (turns, tag) =>
      Promise.all(Array.from({ length: LOAD_SESSIONS }, (_, s) => session(s, turns, tag)));
    // Warm-up: the same shape, one turn per session (sockets opened, code paths compiled).
    await all(1, "warm");
    const elu = performance.eventLoopUtilization();
    const start = performance.now();
    await all(LOAD_TURNS, "load");
    const seconds = (performance.now() - start) / 1000;
    const busy = performance.eventLoopUtilization(elu);
    const count = LOAD_SESSIONS * LOAD_TURNS;
    return {
      rate: count / seconds,
      busyMsPerTurn: busy.active / count,
      utilization: busy.utilization,
    };
  } finally {
    await runtime.close();
    await fake.close();
  }
}

/** Bench rows for `npm run bench`. */
export async function runtimeRows() {
  const overhead = await measureOverhead();
  const ms = (list, p) => `${percentile(list, p).toFixed(2)} ms`;
  const parts = (p) => `(before ${ms(overhead.before, p)}, after ${ms(overhead.after, p)})`;
  const load = await measureThroughput();
  const ideal = LOAD_SESSIONS / (LOAD_LATENCY_MS / 1000);
  return [
    {
      name: `turn overhead p50, zero-latency model (${OVERHEAD_TURNS} turns)`,
      result: `${ms(overhead.total, 50)} ${parts(50)}`,
      target: "< 5 ms",
    },
    {
      name: `turn overhead p95, zero-latency model (${OVERHEAD_TURNS} turns)`,
      result: `${ms(overhead.total, 95)} ${parts(95)}`,
      target: "< 15 ms",
    },
    {
      name: `turns/s, ${LOAD_SESSIONS} sessions × ${LOAD_TURNS} turns, 50 ms model, cap ${LOAD_SESSIONS}`,
      result:
        `${fmt(load.rate)}/s = ${((load.rate / ideal) * 100).toFixed(0)}% of ${fmt(ideal)}/s ` +
        `(main thread ${load.busyMsPerTurn.toFixed(1)} ms/turn)`,
      target: ">= 90% of ideal",
    },
  ];
}
