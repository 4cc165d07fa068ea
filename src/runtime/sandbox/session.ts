// The sandbox of one tool run: the spec resolved up front, and ensure() that checks the backend,
// seeds a "none" sandbox workspace with the agent's bootstrap files, creates or reuses the sandbox
// and, after a creation, prunes stale ones. A failure is a value the tools turn into an error.
import { constants } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { WORKSPACE_MARKER_FILES } from "../../agents/workspace.js";
import type { ResolvedConfig } from "../../config/resolve.js";
import type { Logger } from "../../lib/logger.js";
import { errnoCode, errorMessage } from "../tools/types.js";
import type { SandboxHandle, SandboxResult, SandboxSpec } from "./backend.js";
import { pruneSandboxes } from "./prune.js";
import { createSandboxBackend, type SandboxBackendRegistry } from "./registry.js";
import { resolveSandboxSpec } from "./spec.js";

/** Inputs of {@link createSandboxSession}. */
export interface SandboxSessionParams {
  cfg: ResolvedConfig;
  agentId: string;
  sessionKey: string;
  /** The agent's own workspace: where the bootstrap files of a "none" sandbox workspace come from. */
  agentWorkspace: string;
  registry: SandboxBackendRegistry;
  /** Environment the backend finds its binaries with (PATH, PINCER_BWRAP, DOCKER_HOST...). */
  env: NodeJS.ProcessEnv;
  logger?: Logger;
  now?: () => number;
}

/** One run's sandbox. */
export interface SandboxSession {
  readonly spec: SandboxResult<SandboxSpec>;
  /** The ready sandbox (the first success is reused for the rest of the run). */
  ensure(): Promise<SandboxResult<SandboxHandle>>;
}

/** Copies the agent's bootstrap files into a fresh sandbox workspace; existing files win. */
async function seedSandboxWorkspace(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const name of WORKSPACE_MARKER_FILES) {
    try {
      await copyFile(join(from, name), join(to, name), constants.COPYFILE_EXCL);
    } catch (err) {
      const code = errnoCode(err);
      if (code !== "ENOENT" && code !== "EEXIST") throw err;
    }
  }
}

/** Creates the sandbox session of a run (nothing happens until ensure()). */
export function createSandboxSession(params: SandboxSessionParams): SandboxSession {
  const spec = resolveSandboxSpec(params);
  let pending: Promise<SandboxResult<SandboxHandle>> | undefined;
  const now = params.now ?? Date.now;
  async function ensureOnce(): Promise<SandboxResult<SandboxHandle>> {
    if (!spec.ok) return spec;
    const backend = createSandboxBackend({
      registry: params.registry,
      id: spec.value.backend,
      ctx: { env: params.env, ...(params.logger ? { logger: params.logger } : {}) },
    });
    if (!backend.ok) return backend;
    const availability = await backend.value.available();
    if (!availability.ok) return { ok: false, error: availability.reason };
    try {
      if (spec.value.workspaceAccess === "none")
        await seedSandboxWorkspace(params.agentWorkspace, spec.value.workspaceDir);
    } catch (err) {
      return {
        ok: false,
        error: `sandbox workspace ${spec.value.workspaceDir} could not be prepared: ${errorMessage(err)}`,
      };
    }
    const handle = await backend.value.ensure(spec.value);
    if (handle.ok && handle.value.created) {
      await pruneSandboxes({
        cfg: params.cfg,
        backend: backend.value,
        now: now(),
        keepId: handle.value.id,
        ...(params.logger ? { logger: params.logger } : {}),
      });
    }
    return handle;
  }
  return {
    spec,
    ensure() {
      // Parallel tool calls share one attempt; a failed one is retried by the next call.
      pending ??= ensureOnce().then((result) => {
        if (!result.ok) pending = undefined;
        return result;
      });
      return pending;
    },
  };
}
