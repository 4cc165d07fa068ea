// Long run: many turns over many sessions through the gateway daemon, watching its memory and how
// responsive control traffic stays, and checking that nothing was lost.
//
// Method. One gateway (bench/gateway.mjs's child process, zero-latency fake model in this process).
// SESSIONS session keys each run TURNS_PER_SESSION sequential `agent` turns, all sessions at once, on
// one WebSocket. A second WebSocket sends one `health` every HEALTH_EVERY_MS meanwhile; the row shows
// the slowest round trip. RSS is the child's VmRSS after one warm-up turn per session (start) and
// after the last turn (end); growth per 1,000 turns = (end − start) / measured turns × 1,000. CPU per
// turn = the child's user + system CPU time (/proc/<pid>/stat, all its threads: GC helpers too) over
// the measured turns / their count, which contention on the machine moves far less than wall time.
// Lost = turns whose user or model message is missing from the transcripts on disk, plus turns
// whose model request did not carry every earlier message of its session (the fake model counts
// the user messages in each request's context); doubled = turns with either message on disk twice.
// SOAK_TURNS (default 3,000, rounded to whole turns per session) sets the length:
// `SOAK_TURNS=20000 node -e 'import("./bench/soak.mjs").then(m => m.soakRows()).then(console.log)'`
// (after `npm run build`) runs the 20,000-turn soak alone.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeModelServer } from "./fake-model-server.mjs";
import {
  agentTurn,
  connectClient,
  sleep,
  startGatewayProcess,
  stopChild,
  withTimeout,
  writeHome,
} from "./gateway.mjs";
import { fmt } from "./measure.mjs";
import { processCpuMs } from "./workload.mjs";

const SESSIONS = 50;
const TURNS_PER_SESSION = turnsPerSession(process.env.SOAK_TURNS ?? "3000");
const HEALTH_EVERY_MS = 20;
const MARK = /^(?:soak|ok) s(\d+) t(\d+)\b/;

/** SOAK_TURNS as whole turns per session (at least 2: one warm-up, one measured). */
function turnsPerSession(value) {
  const turns = Number(value);
  if (!Number.isFinite(turns) || turns <= 0) {
    throw new Error(`SOAK_TURNS must be a positive number of turns, got "${value}"`);
  }
  return Math.max(2, Math.round(turns / SESSIONS));
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]) / 1024;
}

function text(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => part?.text ?? "").join("");
  return "";
}

/** The fake model's check: turn t of a session sees t earlier user messages of it, in order. */
function contextChecker() {
  const state = { requests: 0, shortContexts: 0 };
  const reply = (body) => {
    state.requests += 1;
    const users = (body?.messages ?? [])
      .filter((m) => m.role === "user")
      .map((m) => text(m.content));
    const last = MARK.exec(users.at(-1) ?? "");
    if (!last) return "ok";
    const turn = Number(last[2]);
    const seen = users.slice(0, -1).filter((u) => u.startsWith(`soak s${last[1]} `)).length;
    if (seen !== turn) state.shortContexts += 1;
    return `ok s${last[1]} t${turn}`;
  };
  return { state, reply };
}

/**
 * Each turn's user and assistant messages on disk, across every transcript of the agent `main`:
 * `lost` turns miss one of them, `doubled` turns hold more than one of either.
 */
function turnsOnDisk(home, all) {
  const dir = join(home, ".openclaw", "agents", "main", "sessions");
  const users = new Map();
  const replies = new Map();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".jsonl")) continue;
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (!line.includes('"type":"message"')) continue;
      const message = JSON.parse(line).message;
      const mark = MARK.exec(text(message?.content));
      if (!mark) continue;
      const counts = message.role === "user" ? users : replies;
      counts.set(mark[0], (counts.get(mark[0]) ?? 0) + 1);
    }
  }
  let lost = 0;
  let doubled = 0;
  for (const [s, t] of all) {
    const user = users.get(`soak s${s} t${t}`) ?? 0;
    const reply = replies.get(`ok s${s} t${t}`) ?? 0;
    if (user === 0 || reply === 0) lost += 1;
    if (user > 1 || reply > 1) doubled += 1;
  }
  return { lost, doubled };
}

function runTurns(client, from, to) {
  return Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      for (let t = from; t < to; t++) {
        await agentTurn(client, `agent:main:soak-${s}`, `soak s${s} t${t}`, `soak-${s}-${t}`);
      }
    }),
  );
}

/** `health` every HEALTH_EVERY_MS until `stop()`; resolves with the slowest round trip in ms. */
function probeHealth(client) {
  let running = true;
  const done = (async () => {
    let max = 0;
    while (running) {
      const start = performance.now();
      const res = await withTimeout(
        client.request("health", {}, () => true),
        "health",
      );
      if (!res.ok) throw new Error(`health failed: ${JSON.stringify(res.error)}`);
      max = Math.max(max, performance.now() - start);
      await sleep(HEALTH_EVERY_MS);
    }
    return max;
  })();
  return {
    stop: () => {
      running = false;
      return done;
    },
  };
}

/** Bench rows for `npm run bench`. */
export async function soakRows() {
  const root = mkdtempSync(join(tmpdir(), "pincer-bench-soak-"));
  const checker = contextChecker();
  const fake = await startFakeModelServer({ latencyMs: 0, record: false, reply: checker.reply });
  const home = writeHome(root, "soak", fake.baseUrl, ["main"]);
  let gw;
  let turns;
  let control;
  try {
    gw = await startGatewayProcess(home);
    turns = await connectClient(gw.url);
    control = await connectClient(gw.url);
    await runTurns(turns, 0, 1);
    const startRss = rssMb(gw.child.pid);
    const startCpu = processCpuMs(gw.child.pid);
    const probe = probeHealth(control);
    const started = performance.now();
    try {
      await runTurns(turns, 1, TURNS_PER_SESSION);
    } catch (error) {
      // The failed turn is what gets reported; the probe only has to end before the sockets close.
      await probe.stop().catch(() => {});
      throw error;
    }
    const seconds = (performance.now() - started) / 1000;
    const maxHealthMs = await probe.stop();
    const endRss = rssMb(gw.child.pid);
    const cpuMs = processCpuMs(gw.child.pid) - startCpu;
    const measured = SESSIONS * (TURNS_PER_SESSION - 1);
    const all = SESSIONS * TURNS_PER_SESSION;
    const keys = Array.from({ length: all }, (_, i) => [i % SESSIONS, Math.floor(i / SESSIONS)]);
    const disk = turnsOnDisk(home, keys);
    const label = `soak, ${fmt(all)} turns over ${SESSIONS} sessions via gateway`;
    return [
      {
        name: `${label}: RSS start → end`,
        result: `${startRss.toFixed(1)} → ${endRss.toFixed(1)} MB (${fmt(measured / seconds)} turns/s)`,
        target: "end < 200 MB",
      },
      {
        name: `${label}: RSS growth per 1,000 turns`,
        result: `${(((endRss - startRss) / measured) * 1000).toFixed(1)} MB`,
        target: "",
      },
      {
        name: `${label}: gateway CPU per turn`,
        result: `${(cpuMs / measured).toFixed(2)} ms`,
        target: "",
      },
      {
        name: `${label}: max health latency`,
        result: `${maxHealthMs.toFixed(1)} ms`,
        target: "< 100 ms",
      },
      {
        name: `${label}: lost / doubled turns`,
        result: `${disk.lost + checker.state.shortContexts} / ${disk.doubled}`,
        target: "0 / 0",
      },
    ];
  } finally {
    await turns?.close().catch(() => {});
    await control?.close().catch(() => {});
    if (gw) await stopChild(gw.child);
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}
