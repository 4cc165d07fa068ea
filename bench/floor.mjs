// The floor: pi-agent-core's loop alone (pi-ai's `streamSimple` inside `runAgentLoop`, no Pincer
// code) under bench/workload.mjs's workload, against the same fake model. Each session keeps its
// messages in memory (no store, no transcript, no prompt building, no tools); a turn appends the
// user's message and runs the loop once. This is what the stack Pincer is built on costs by itself,
// so Pincer's runtime and gateway rows report their rates as a share of it. Measured once per run
// (`floorFigures` is memoized); bench/runtime.mjs and bench/gateway.mjs measure its load again right
// before their own (`measureFloorLoad`) and report their share of that.
import { runAgentLoop } from "@mariozechner/pi-agent-core";
import { fmt } from "./measure.mjs";
import {
  LOAD_LABEL,
  LOAD_LATENCY_MS,
  measureLoad,
  measureOverhead,
  OVERHEAD_TURNS,
  percentile,
  startFakeModelProcess,
} from "./workload.mjs";

/** The pi-ai model for the fake provider at `baseUrl`, as Pincer resolves `fake/m1`. */
function fakeModel(baseUrl) {
  return {
    id: "m1",
    name: "m1",
    api: "openai-completions",
    provider: "fake",
    baseUrl,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 32000,
    maxTokens: 256,
  };
}

/** Bare sessions on pi-agent-core: `turn(session, message)` runs one loop; throws unless answered. */
function createBareAgent(baseUrl) {
  const config = {
    model: fakeModel(baseUrl),
    apiKey: "sk-bench",
    getApiKey: () => "sk-bench",
    maxRetries: 0,
    convertToLlm: (messages) => messages,
  };
  const sessions = new Map();
  return {
    turn: async (session, message) => {
      const messages = sessions.get(session) ?? [];
      sessions.set(session, messages);
      const context = { systemPrompt: "You are a helpful assistant.", messages, tools: [] };
      const prompt = { role: "user", content: message, timestamp: Date.now() };
      const added = await runAgentLoop([prompt], context, config, () => {});
      messages.push(...added);
      const final = added.at(-1);
      if (final?.role !== "assistant" || final.stopReason !== "stop") {
        throw new Error(`floor turn failed: ${final?.errorMessage ?? final?.stopReason}`);
      }
    },
    close: async () => {},
  };
}

/**
 * The floor's load figures `{ rate, cpuMsPerTurn, busyMsPerTurn }`, measured now. The runtime and
 * gateway rows take their share against a floor measured right beside them: on a shared machine the
 * rate drifts more between minutes than between back-to-back runs.
 */
export async function measureFloorLoad() {
  const fake = await startFakeModelProcess({ latencyMs: LOAD_LATENCY_MS });
  try {
    const agent = createBareAgent(fake.baseUrl);
    return await measureLoad({ turn: (s, t, tag) => agent.turn(`${tag}-${s}`, `m${t}`) });
  } finally {
    await fake.close();
  }
}

let figures;

/**
 * The floor's figures, measured on first call: `{ load: { rate, cpuMsPerTurn, busyMsPerTurn },
 * overhead: { total, before, after } }` (overhead lists sorted, ms).
 */
export function floorFigures() {
  figures ??= (async () => {
    const overhead = await measureOverhead(async (baseUrl) => createBareAgent(baseUrl));
    const load = await measureFloorLoad();
    return { load, overhead };
  })();
  return figures;
}

/** Bench rows for `npm run bench`: the floor the runtime and gateway rows are compared with. */
export async function floorRows() {
  const { load, overhead } = await floorFigures();
  const ms = (p) => `${percentile(overhead.total, p).toFixed(2)} ms`;
  return [
    {
      name: `floor (pi-agent-core alone) turn time p50 / p95, zero-latency model (${OVERHEAD_TURNS} turns)`,
      result: `${ms(50)} / ${ms(95)}`,
      target: "",
    },
    {
      name: `floor (pi-agent-core alone) turns/s, ${LOAD_LABEL}`,
      result: `${fmt(load.rate)}/s (CPU ${load.cpuMsPerTurn.toFixed(2)} ms/turn)`,
      target: "",
    },
  ];
}
