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
// Throughput row: bench/workload.mjs's load (the fake model in a child process), lane cap
// (`agents.defaults.maxConcurrent`) = the session count; turns/s as a share of the floor
// (bench/floor.mjs: pi-agent-core alone under the same load, measured right before), and CPU ms per
// turn. The overhead rows show the floor's own per-turn time with the same zero-latency model.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../dist/config/index.js";
import { writeFileAtomic } from "../dist/lib/atomic-write.js";
import { createLaneScheduler } from "../dist/runtime/lanes/index.js";
import { createRunCaches, runAgent } from "../dist/runtime/run/index.js";
import { ProcessRegistry } from "../dist/runtime/tools/index.js";
import { acquireStateDirLock, SessionStoreRegistry } from "../dist/sessions/index.js";
import { fakeModelsConfig } from "./fake-model-server.mjs";
import { floorFigures, measureFloorLoad } from "./floor.mjs";
import { fmt } from "./measure.mjs";
import {
  LOAD_LABEL,
  LOAD_LATENCY_MS,
  LOAD_SESSIONS,
  measureLoad,
  measureOverhead as measureTurnOverhead,
  OVERHEAD_TURNS,
  percentile,
  shareOfFloor,
  startFakeModelProcess,
} from "./workload.mjs";

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

/**
 * Per-turn gateway overhead with a zero-latency model, turns one at a time over 20 sessions (each
 * measured turn loads a short real history). Sorted arrays in ms: `total`, `before`, `after`.
 */
export function measureOverhead({ turns = OVERHEAD_TURNS } = {}) {
  return measureTurnOverhead(
    async (baseUrl) => {
      const runtime = createRuntime(baseUrl, 4);
      return {
        turn: (s, message) => turn(runtime.deps, `agent:main:bench-${s}`, message),
        close: runtime.close,
      };
    },
    { turns },
  );
}

/** Turns per second under the shared load, with CPU and main-thread busy ms per turn. */
export async function measureThroughput() {
  const fake = await startFakeModelProcess({ latencyMs: LOAD_LATENCY_MS });
  const runtime = createRuntime(fake.baseUrl, LOAD_SESSIONS);
  try {
    return await measureLoad({
      turn: (s, t, tag) => turn(runtime.deps, `agent:main:${tag}-${s}`, `m${t}`),
    });
  } finally {
    await runtime.close();
    await fake.close();
  }
}

/** Bench rows for `npm run bench`. */
export async function runtimeRows() {
  const floor = await floorFigures();
  const overhead = await measureOverhead();
  const ms = (list, p) => `${percentile(list, p).toFixed(2)} ms`;
  const parts = (p) =>
    `(before ${ms(overhead.before, p)}, after ${ms(overhead.after, p)}; floor ${ms(floor.overhead.total, p)}, matched floor ${ms(floor.matched.overhead.total, p)})`;
  const floorLoad = await measureFloorLoad();
  const matchedLoad = await measureFloorLoad({ matched: true });
  const load = await measureThroughput();
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
      name: `runtime turns/s, ${LOAD_LABEL}`,
      result:
        `${fmt(load.rate)}/s = ${shareOfFloor(load.rate, floorLoad.rate, matchedLoad.rate)} ` +
        `(CPU ${load.cpuMsPerTurn.toFixed(2)} ms/turn, main thread ${load.busyMsPerTurn.toFixed(1)} ms/turn)`,
      target: ">= 95% of matched floor",
    },
  ];
}
