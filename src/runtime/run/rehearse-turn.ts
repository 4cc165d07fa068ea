// The warm-up's rehearsal turn: one whole turn through `runAgent` — lanes, session store, transcript
// create/append/flush, prompt, tools, the provider's stream and SSE parsing, the reply — so the
// first real turn runs compiled code (a first turn cost ~3x a warm one with only the model request
// rehearsed). Nothing real is touched: the turn runs on a synthetic config holding only the
// agent's model and the configured providers, with its workspace, agent dir, sessions and state-dir
// lock in a temp dir (removed after), a dummy key, and the provider's stream pointed at the
// loopback rehearsal server (`rehearse-stream.ts`); nothing leaves the host.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { streamSimple } from "@mariozechner/pi-ai";
import type { StatePaths } from "../../config/paths.js";
import { lookupAgent, resolveConfig } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { acquireStateDirLock, SessionStoreRegistry } from "../../sessions/index.js";
import { createLaneScheduler } from "../lanes/index.js";
import { AUTH_PROFILES_FILE } from "../models/auth-store.js";
import { formatModelRef, resolveAgentModelChain, resolveModel } from "../models/index.js";
import { canRehearseStream, startRehearsalServer } from "./rehearse-stream.js";
import { type AgentRuntimeDeps, runAgent } from "./run-agent.js";

/** What the rehearsal came to: a whole turn, or why it was skipped or fell short. */
export type RehearsedTurn = { ok: true } | { ok: false; reason: string };

/** The synthetic config: the agent alone, on its primary model, everything under `root`. */
function rehearsalConfig(params: {
  deps: AgentRuntimeDeps;
  agentId: string;
  model: string;
  root: string;
}): OpenClawConfig {
  const { deps, agentId, model, root } = params;
  const models = deps.config.config.models;
  return {
    ...(models ? { models } : {}),
    agents: {
      list: [
        {
          id: agentId,
          model,
          workspace: join(root, "workspace"),
          agentDir: join(root, "agent"),
          skipBootstrap: true,
        },
      ],
    },
  } as OpenClawConfig;
}

/** Runs the rehearsal turn for `agentId` (see the header); never throws. */
export async function rehearseTurn(
  deps: AgentRuntimeDeps,
  agentId: string,
): Promise<RehearsedTurn> {
  const agent = lookupAgent(deps.config, agentId);
  const chain = resolveAgentModelChain({ cfg: deps.config, agentId: agent.id });
  if (!chain.primary) return { ok: false, reason: "no model" };
  const resolved = resolveModel({ cfg: deps.config.config, ref: chain.primary, env: deps.env });
  if (!resolved.ok) return { ok: false, reason: "model not found" };
  const { api, provider } = resolved.model;
  if (!canRehearseStream(api)) return { ok: false, reason: `no rehearsal for ${api}` };
  let root: string | undefined;
  let server: Awaited<ReturnType<typeof startRehearsalServer>> | undefined;
  let lock: ReturnType<typeof acquireStateDirLock> | undefined;
  let stores: SessionStoreRegistry | undefined;
  try {
    root = mkdtempSync(join(tmpdir(), "pincer-warm-turn-"));
    server = await startRehearsalServer(api);
    const baseUrl = server.baseUrl;
    const paths: StatePaths = {
      home: root,
      stateDir: root,
      configPath: join(root, "openclaw.json"),
      workspaceBase: root,
    };
    const config = rehearsalConfig({
      deps,
      agentId: agent.id,
      model: formatModelRef(chain.primary),
      root,
    });
    const cfg = resolveConfig({ config, paths });
    // A dummy key where the agent's own would be found: the real one is never read or sent.
    mkdirSync(join(root, "agent"), { recursive: true });
    const profiles = { [`${provider}:warm-up`]: { type: "api_key", provider, key: "warm-up" } };
    writeFileSync(
      join(root, "agent", AUTH_PROFILES_FILE),
      JSON.stringify({ version: 1, profiles }),
    );
    lock = acquireStateDirLock({ stateDir: root });
    stores = new SessionStoreRegistry({ cfg: config, paths, lock });
    const streamFn: StreamFn = (model, context, options) =>
      streamSimple({ ...model, baseUrl }, context, {
        ...options,
        apiKey: "warm-up",
        maxRetries: 0,
      });
    const handle = await runAgent(
      {
        config: cfg,
        paths,
        env: {},
        stores,
        lanes: createLaneScheduler({ maxConcurrent: 1 }),
        jobs: deps.jobs,
        streamFn,
      },
      { agentId: agent.id, sessionKey: `agent:${agent.id}:warm-up`, message: "warm-up" },
    );
    const result = await handle.result;
    return result.status === "ok"
      ? { ok: true }
      : { ok: false, reason: result.error ?? result.status };
  } catch (err) {
    return { ok: false, reason: String(err) };
  } finally {
    await server?.close();
    await stores
      ?.closeAll()
      .catch((err: unknown) =>
        deps.log?.debug({ error: String(err) }, "warm-up turn: closing its temp store failed"),
      );
    lock?.release();
    if (root) rmSync(root, { recursive: true, force: true });
  }
}
