// The one workload the floor, the runtime and the gateway are measured under, so their rows compare:
//   load     — LOAD_SESSIONS sessions at once (concurrency cap LOAD_SESSIONS), each LOAD_TURNS
//              sequential turns, the model answering after LOAD_LATENCY_MS; the fake model runs in a
//              child process (bench/fake-model-server.mjs), so none of its CPU is charged to the side
//              measured, as with a real remote model. Reported: turns/s, CPU ms per turn (the
//              measured process's user+system time over the window) and, in-process, the main
//              thread's busy ms per turn (event-loop utilization).
//   overhead — turns one at a time against a zero-latency fake model in this thread (its
//              `performance.now()` stamps share our clock): total − model window, split into
//              `before` (call → request at the model) and `after` (last reply byte → result).
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { startFakeModelServer } from "./fake-model-server.mjs";

export const LOAD_SESSIONS = 100;
export const LOAD_TURNS = 10;
export const LOAD_LATENCY_MS = 50;
export const OVERHEAD_WARMUP_TURNS = 20;
export const OVERHEAD_TURNS = 200;
export const OVERHEAD_SESSIONS = 20;

/** The load row's label, the same for every side measured. */
export const LOAD_LABEL = `${LOAD_SESSIONS} sessions × ${LOAD_TURNS} turns, ${LOAD_LATENCY_MS} ms model, cap ${LOAD_SESSIONS}`;

/** The p-th percentile of an ascending list. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** CPU time (user + system, all threads) this process has used, in ms. */
export function ownCpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const CLOCK_TICKS_PER_S = 100; // USER_HZ on Linux

/** CPU time (user + system, all threads) process `pid` has used, in ms, from /proc/<pid>/stat. */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14, 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  if (!Number.isFinite(ticks)) throw new Error(`no CPU times in /proc/${pid}/stat`);
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** The fake model in a child process at `latencyMs`: `{ baseUrl, close() }`. */
export async function startFakeModelProcess({ latencyMs }) {
  const child = fork(fileURLToPath(import.meta.url), ["--fake-model", String(latencyMs)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const baseUrl = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`fake model process exited (${code})`)));
  });
  return {
    baseUrl,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

if (process.argv[2] === "--fake-model" && process.send) {
  const fake = await startFakeModelServer({ latencyMs: Number(process.argv[3]), record: false });
  process.once("SIGTERM", () => {
    fake.close().then(() => process.exit(0));
  });
  process.send(fake.baseUrl);
}

/**
 * Runs the load: `turn(session, index, tag)` is one turn of session `session` (0-based); one warm-up
 * turn per session first (sockets opened, code compiled), then the measured window. `cpuMs()` is the
 * measured side's cumulative CPU (default: this process). Returns `{ rate, cpuMsPerTurn,
 * busyMsPerTurn }`; busyMsPerTurn is this thread's event-loop busy time per turn.
 */
export async function measureLoad({ turn, cpuMs = ownCpuMs }) {
  const session = async (s, turns, tag) => {
    for (let t = 0; t < turns; t++) await turn(s, t, tag);
  };
  const all = (turns, tag) =>
    Promise.all(Array.from({ length: LOAD_SESSIONS }, (_, s) => session(s, turns, tag)));
  await all(1, "warm");
  const elu = performance.eventLoopUtilization();
  const cpuStart = cpuMs();
  const start = performance.now();
  await all(LOAD_TURNS, "load");
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuMs() - cpuStart;
  const busy = performance.eventLoopUtilization(elu);
  const count = LOAD_SESSIONS * LOAD_TURNS;
  return { rate: count / seconds, cpuMsPerTurn: cpu / count, busyMsPerTurn: busy.active / count };
}

/**
 * Per-turn cost with a zero-latency model, turns one at a time. `start(baseUrl)` builds the side
 * measured and returns `{ turn(session, message), close() }`; `turn` must make exactly one model
 * request. Returns sorted arrays in ms: `total` overhead and its parts `before` and `after`.
 */
export async function measureOverhead(start, { turns = OVERHEAD_TURNS } = {}) {
  const fake = await startFakeModelServer({ latencyMs: 0 });
  const side = await start(fake.baseUrl);
  try {
    const session = (i) => i % OVERHEAD_SESSIONS;
    for (let i = 0; i < OVERHEAD_WARMUP_TURNS; i++) await side.turn(session(i), `warm-up ${i}`);
    const total = [];
    const before = [];
    const after = [];
    for (let i = 0; i < turns; i++) {
      const seen = fake.requests.length;
      const begin = performance.now();
      await side.turn(session(i), `message ${i}`);
      const end = performance.now();
      if (fake.requests.length !== seen + 1) throw new Error("expected one model request a turn");
      const { arrivedAt, lastByteAt } = fake.requests[seen];
      before.push(arrivedAt - begin);
      after.push(end - lastByteAt);
      total.push(end - begin - (lastByteAt - arrivedAt));
    }
    const sort = (list) => list.sort((a, b) => a - b);
    return { total: sort(total), before: sort(before), after: sort(after) };
  } finally {
    await side.close();
    await fake.close();
  }
}

/** "N% of floor F/s" for a rate against a floor measured beside it; with `matched` (the floor
 *  sending Pincer's own request) "N% of the matched floor F/s, M% of the bare floor B/s". */
export function shareOfFloor(rate, floorRate, matchedRate) {
  const share = (of) => `${((rate / of) * 100).toFixed(0)}%`;
  if (matchedRate === undefined) return `${share(floorRate)} of floor ${Math.round(floorRate)}/s`;
  return `${share(matchedRate)} of the matched floor ${Math.round(matchedRate)}/s, ${share(floorRate)} of the bare floor ${Math.round(floorRate)}/s`;
}
