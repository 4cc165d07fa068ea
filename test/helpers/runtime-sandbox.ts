// A real runtime against the fake OpenAI server: temp state dir, held lock, session stores, lanes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/index.js";
import { writeFileAtomic } from "../../src/lib/atomic-write.js";
import type { OpenClawConfig } from "../../src/protocol/config/index.js";
import { createLaneScheduler, type LaneScheduler } from "../../src/runtime/lanes/index.js";
import {
  type AgentRuntimeDeps,
  createRunCaches,
  type RunAgentParams,
  runAgent,
} from "../../src/runtime/run/index.js";
import { ProcessRegistry } from "../../src/runtime/tools/index.js";
import { acquireStateDirLock, SessionStoreRegistry } from "../../src/sessions/index.js";
import { type FakeOpenAI, startFakeOpenAI } from "./fake-openai.js";

/** The fake provider's models: `fake/m1` (primary) and `fake/m2` (fallback). */
export function fakeProviderConfig(baseUrl: string): OpenClawConfig["models"] {
  const model = (id: string) => ({ id, name: id, contextWindow: 32000, maxTokens: 1024 });
  return {
    mode: "merge",
    providers: {
      fake: {
        baseUrl,
        apiKey: "sk-test",
        api: "openai-completions",
        models: [model("m1"), model("m2"), { ...model("vision"), input: ["text", "image"] }],
      },
    },
  };
}

/** A CLI sandbox's config text: agent `main` on `fake/m1`, its workspace under `home`. */
export function fakeCliConfigText(home: string, baseUrl: string): string {
  return JSON.stringify({
    agents: { defaults: { model: "fake/m1", workspace: `${home}/ws` }, list: [{ id: "main" }] },
    models: fakeProviderConfig(baseUrl),
  });
}

/** A running runtime and its fake model server. */
export interface RuntimeSandbox {
  fake: FakeOpenAI;
  deps: AgentRuntimeDeps;
  lanes: LaneScheduler;
  stateDir: string;
  workspace: string;
  run: (params: RunAgentParams) => ReturnType<typeof runAgent>;
  close: () => Promise<void>;
}

/** Starts a fake server and a runtime whose config is `extra` merged over a one-agent setup. */
export async function createRuntimeSandbox(
  extra: (baseUrl: string) => Partial<OpenClawConfig> = () => ({}),
): Promise<RuntimeSandbox> {
  const fake = await startFakeOpenAI();
  const home = mkdtempSync(join(tmpdir(), "pincer-run-"));
  const stateDir = join(home, ".openclaw");
  const workspace = join(home, "workspace");
  const overrides = extra(fake.baseUrl);
  const config: OpenClawConfig = {
    models: fakeProviderConfig(fake.baseUrl),
    ...overrides,
    agents: {
      list: [{ id: "main" }],
      ...overrides.agents,
      defaults: { model: "fake/m1", ...overrides.agents?.defaults, workspace },
    },
  };
  writeFileAtomic(join(stateDir, "openclaw.json"), JSON.stringify(config, null, 2));
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  const loaded = loadConfig({ env });
  if (!loaded.valid) throw new Error(`sandbox config invalid: ${JSON.stringify(loaded.issues)}`);
  const lock = acquireStateDirLock({ stateDir });
  const stores = new SessionStoreRegistry({ cfg: loaded.config, paths: loaded.paths, lock });
  const lanes = createLaneScheduler({ maxConcurrent: 4 });
  const jobs = new ProcessRegistry();
  const deps: AgentRuntimeDeps = {
    config: loaded.resolved,
    paths: loaded.paths,
    env,
    stores,
    lanes,
    jobs,
    caches: createRunCaches(),
  };
  return {
    fake,
    deps,
    lanes,
    stateDir,
    workspace,
    run: (params) => runAgent(deps, params),
    close: async () => {
      await lanes.idle();
      await jobs.stopAll();
      await stores.closeAll();
      lock.release();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
