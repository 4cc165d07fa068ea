// The request Pincer's agent sends the model in the bench workload (its system prompt and its tool
// schemas), captured from one real turn of the runtime against an in-process fake model. The floor
// replays it through pi-agent-core alone, so "share of the floor" can compare the same request:
// pi-ai and the OpenAI SDK spend CPU in proportion to the request's size, and the bare floor's
// 30-byte prompt with no tools would charge that stack cost to Pincer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../dist/config/index.js";
import { writeFileAtomic } from "../dist/lib/atomic-write.js";
import { createLaneScheduler } from "../dist/runtime/lanes/index.js";
import { createRunCaches, runAgent } from "../dist/runtime/run/index.js";
import { ProcessRegistry } from "../dist/runtime/tools/index.js";
import { acquireStateDirLock, SessionStoreRegistry } from "../dist/sessions/index.js";
import { fakeModelsConfig, startFakeModelServer } from "./fake-model-server.mjs";

async function captureOnce() {
  let body;
  const fake = await startFakeModelServer({
    record: false,
    reply: (request) => {
      body ??= request;
      return "ok";
    },
  });
  const home = mkdtempSync(join(tmpdir(), "pincer-bench-request-"));
  const stateDir = join(home, ".openclaw");
  const config = {
    models: fakeModelsConfig(fake.baseUrl),
    agents: {
      defaults: { model: "fake/m1", workspace: join(home, "workspace"), skipBootstrap: true },
      list: [{ id: "main" }],
    },
  };
  writeFileAtomic(join(stateDir, "openclaw.json"), JSON.stringify(config));
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  const loaded = loadConfig({ env });
  const lock = acquireStateDirLock({ stateDir, command: "bench" });
  const stores = new SessionStoreRegistry({
    cfg: loaded.resolved.config,
    paths: loaded.paths,
    lock,
  });
  const jobs = new ProcessRegistry();
  try {
    const deps = {
      config: loaded.resolved,
      paths: loaded.paths,
      env,
      stores,
      lanes: createLaneScheduler({ maxConcurrent: 1 }),
      jobs,
      caches: createRunCaches(),
    };
    const result = await runAgent(deps, { sessionKey: "agent:main:capture", message: "hi" }).result;
    if (result.status !== "ok" || !body) throw new Error(`capture turn failed: ${result.error}`);
  } finally {
    await jobs.stopAll();
    await stores.closeAll();
    lock.release();
    rmSync(home, { recursive: true, force: true });
    await fake.close();
  }
  const system = body.messages.find((message) => message.role === "system");
  const tools = (body.tools ?? []).map((tool) => ({
    name: tool.function.name,
    description: tool.function.description,
    parameters: tool.function.parameters,
    execute: async () => ({ content: [{ type: "text", text: "" }] }),
  }));
  return {
    systemPrompt: typeof system?.content === "string" ? system.content : "",
    tools,
    bytes: JSON.stringify(body).length,
  };
}

let captured;

/** `{ systemPrompt, tools, bytes }` of Pincer's first request in the bench workload (memoized). */
export function pincerRequest() {
  captured ??= captureOnce();
  return captured;
}
