// The warm-up's rehearsal turn: one whole turn through `runAgent` — lanes, session store, transcript
// create/append/flush, prompt, tools, the provider's stream and SSE parsing, the reply — so the
// first real turn runs compiled code (a first turn cost ~3x a warm one with only the model request
// rehearsed). Nothing real is touched: the turn runs on a synthetic config holding only the
// agent's model and the configured providers, with its workspace, agent dir, sessions and state-dir
// lock in a temp dir (removed after), a dummy key, and the provider's stream pointed at the
// loopback rehearsal server (`rehearse-stream.ts`); nothing leaves the host. A dir a gateway killed
// mid-rehearsal left behind is swept at the next rehearsal.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { streamSimple } from "@mariozechner/pi-ai";
import type { StatePaths } from "../../config/paths.js";
import { lookupAgent, resolveConfig } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import {
  acquireStateDirLock,
  isProcessAlive,
  readStateDirLock,
  SessionStoreRegistry,
} from "../../sessions/index.js";
import { createLaneScheduler } from "../lanes/index.js";
import { AUTH_PROFILES_FILE } from "../models/auth-store.js";
import { formatModelRef, resolveAgentModelChain, resolveModel } from "../models/index.js";
import { canRehearseStream, startRehearsalServer } from "./rehearse-stream.js";
import { type AgentRuntimeDeps, runAgent } from "./run-agent.js";

/** The temp dirs' name prefix (a sweep finds the ones a killed gateway left). */
export const REHEARSAL_DIR_PREFIX = "pincer-warm-turn-";

/** A dir without a lock yet may be one another gateway is creating right now. */
const UNLOCKED_GRACE_MS = 60_000;

/**
 * Removes rehearsal dirs a gateway killed mid-rehearsal left in `base` (kill -9 skips the cleanup):
 * those whose lock names a process that is gone, or with no lock for over a minute.
 */
export function sweepStaleRehearsals(params: {
  base: string;
  now: number;
  log?: AgentRuntimeDeps["log"];
}): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(params.base).filter((name) => name.startsWith(REHEARSAL_DIR_PREFIX));
  } catch (err) {
    params.log?.debug({ base: params.base, error: String(err) }, "warm-up: temp dir not listed");
    return 0;
  }
  for (const name of names) {
    const dir = join(params.base, name);
    try {
      const lock = readStateDirLock(dir);
      if (lock ? isProcessAlive(lock.pid) : params.now - statSync(dir).mtimeMs < UNLOCKED_GRACE_MS)
        continue;
      rmSync(dir, { recursive: true, force: true });
      removed += 1;
    } catch (err) {
      params.log?.debug({ dir, error: String(err) }, "warm-up: stale rehearsal dir kept");
    }
  }
  return removed;
}

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
    sweepStaleRehearsals({
      base: tmpdir(),
      now: Date.now(),
      ...(deps.log ? { log: deps.log } : {}),
    });
    root = mkdtempSync(join(tmpdir(), REHEARSAL_DIR_PREFIX));
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
