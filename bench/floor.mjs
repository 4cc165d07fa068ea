// The floor: pi-agent-core's loop alone (pi-ai's `streamSimple` inside `runAgentLoop`, no Pincer
// code) under bench/workload.mjs's workload, against the same fake model. Each session keeps its
// messages in memory (no store, no transcript, no prompt building, no tool runs); a turn appends the
// user's message and runs the loop once. Two floors: the bare one (a one-line system prompt, no
// tools) and the matched one, which sends the same system prompt and tool schemas as Pincer's agent
// (bench/pincer-request.mjs), so the stack's cost of encoding that request is not counted as Pincer's. This is what the stack Pincer is built on costs by itself,
// so Pincer's runtime and gateway rows report their rates as a share of it. Measured once per run
// (`floorFigures` is memoized); bench/runtime.mjs and bench/gateway.mjs measure its load again right
// before their own (`measureFloorLoad`) and report their share of that.
import { runAgentLoop } from "@mariozechner/pi-agent-core";
import { fmt } from "./measure.mjs";
import { pincerRequest } from "./pincer-request.mjs";
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

/** Sessions on pi-agent-core alone: `turn(session, message)` runs one loop; throws unless answered.
 *  `request` (`{ systemPrompt, tools }`) replaces the bare prompt and empty tool list. */
function createBareAgent(baseUrl, request) {
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
      const context = {
        systemPrompt: request?.systemPrompt ?? "You are a helpful assistant.",
        messages,
        tools: request?.tools ?? [],
      };
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
export async function measureFloorLoad({ matched = false } = {}) {
  const request = matched ? await pincerRequest() : undefined;
  const fake = await startFakeModelProcess({ latencyMs: LOAD_LATENCY_MS });
  try {
    const agent = createBareAgent(fake.baseUrl, request);
    return await measureLoad({ turn: (s, t, tag) => agent.turn(`${tag}-${s}`, `m${t}`) });
  } finally {
    await fake.close();
  }
}

let figures;

/**
 * The floor's figures, measured on first call: `{ load: { rate, cpuMsPerTurn, busyMsPerTurn },
 * overhead: { total, before, after } }` (overhead lists sorted, ms) for the bare floor, the same
 * under `matched` for the floor sending Pincer's request, and that `request`.
 */
export function floorFigures() {
  figures ??= (async () => {
    const request = await pincerRequest();
    const overhead = await measureOverhead(async (baseUrl) => createBareAgent(baseUrl));
    const matchedOverhead = await measureOverhead(async (baseUrl) =>
      createBareAgent(baseUrl, request),
    );
    const load = await measureFloorLoad();
    const matchedLoad = await measureFloorLoad({ matched: true });
    return { load, overhead, matched: { load: matchedLoad, overhead: matchedOverhead }, request };
  })();
  return figures;
}

/** Bench rows for `npm run bench`: the floors the runtime and gateway rows are compared with. */
export async function floorRows() {
  const { load, overhead, matched, request } = await floorFigures();
  const ms = (list, p) => `${percentile(list.total, p).toFixed(2)} ms`;
  const what = `Pincer's request: ${request.tools.length} tool schemas + ${request.systemPrompt.length}-char system prompt, ${(request.bytes / 1024).toFixed(1)} KB`;
  return [
    {
      name: `floor (pi-agent-core alone) turn time p50 / p95, zero-latency model (${OVERHEAD_TURNS} turns)`,
      result: `bare ${ms(overhead, 50)} / ${ms(overhead, 95)}; with Pincer's request ${ms(matched.overhead, 50)} / ${ms(matched.overhead, 95)}`,
      target: "",
    },
    {
      name: `floor (pi-agent-core alone) turns/s, ${LOAD_LABEL}`,
      result: `bare ${fmt(load.rate)}/s (CPU ${load.cpuMsPerTurn.toFixed(2)} ms/turn); with ${what}: ${fmt(matched.load.rate)}/s (CPU ${matched.load.cpuMsPerTurn.toFixed(2)} ms/turn)`,
      target: "",
    },
  ];
}
