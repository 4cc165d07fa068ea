// Which sandboxes are stale (`sandbox.prune`: unused for idleHours, or older than maxAgeDays; 0 turns
// a rule off) and the workspace roots every backend's list() looks under.
import type { ResolvedConfig } from "../../config/resolve.js";
import type { Logger } from "../../lib/logger.js";
import type { SandboxBackend, SandboxInstance } from "./backend.js";
import { resolveEffectiveSandbox } from "./config.js";
import { sandboxWorkspaceRoot } from "./spec.js";

const HOUR_MS = 3_600_000;

/** Every agent's `sandbox.workspaceRoot` (absolute, deduplicated; default `<stateDir>/sandboxes`). */
export function sandboxWorkspaceRoots(cfg: ResolvedConfig): string[] {
  const roots = cfg.agents.map((agent) =>
    sandboxWorkspaceRoot(cfg, resolveEffectiveSandbox(cfg, agent.id)),
  );
  return [...new Set(roots)];
}

/** Why `instance` is due for removal under its agent's prune settings, or undefined. */
export function pruneReason(params: {
  cfg: ResolvedConfig;
  instance: SandboxInstance;
  now: number;
}): string | undefined {
  const { instance, now } = params;
  const prune = resolveEffectiveSandbox(params.cfg, instance.agentId).prune;
  const idleHours = prune.idleHours.value;
  const maxAgeDays = prune.maxAgeDays.value;
  if (idleHours > 0 && now - instance.lastUsedAt > idleHours * HOUR_MS)
    return `unused for more than ${idleHours} h (${prune.idleHours.source})`;
  if (maxAgeDays > 0 && now - instance.createdAt > maxAgeDays * 24 * HOUR_MS)
    return `older than ${maxAgeDays} days (${prune.maxAgeDays.source})`;
  return undefined;
}

/** Removes the stale sandboxes of `backend` (never `keepId`); returns what was removed. Never throws. */
export async function pruneSandboxes(params: {
  cfg: ResolvedConfig;
  backend: SandboxBackend;
  now: number;
  keepId?: string;
  logger?: Logger;
}): Promise<SandboxInstance[]> {
  const { cfg, backend, logger } = params;
  const listed = await backend.list({ workspaceRoots: sandboxWorkspaceRoots(cfg) });
  if (!listed.ok) {
    logger?.warn(`sandbox prune: ${listed.error}`);
    return [];
  }
  const removed: SandboxInstance[] = [];
  for (const instance of listed.value) {
    if (instance.id === params.keepId) continue;
    const reason = pruneReason({ cfg, instance, now: params.now });
    if (!reason) continue;
    const result = await backend.remove(instance);
    if (!result.ok) logger?.warn(`sandbox prune: ${result.error}`);
    else {
      logger?.info(
        `sandbox prune: removed ${instance.backend} sandbox ${instance.scopeKey}: ${reason}`,
      );
      removed.push(instance);
    }
  }
  return removed;
}
