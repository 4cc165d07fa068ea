// The gateway's periodic sandbox prune: every few minutes, while some agent is sandboxed, each
// backend's stale sandboxes (`sandbox.prune`: unused for idleHours, older than maxAgeDays) are
// removed, so an idle gateway does not keep containers forever between creations (a creation
// prunes too). Backends that cannot run here are skipped quietly; nothing here throws.
import type { ResolvedConfig } from "../config/resolve.js";
import type { Logger } from "../lib/logger.js";
import type { SandboxBackendId } from "../runtime/sandbox/backend.js";
import { pruneSandboxes } from "../runtime/sandbox/prune.js";
import {
  createSandboxBackend,
  defaultSandboxBackends,
  type SandboxBackendRegistry,
} from "../runtime/sandbox/registry.js";
import { listSandboxedAgents } from "../runtime/tools/sandbox-policy.js";

/** How often the gateway prunes (OpenClaw also prunes at most every five minutes). */
export const SANDBOX_PRUNE_INTERVAL_MS = 5 * 60_000;

/** Inputs of {@link pruneGatewaySandboxes}. */
export interface GatewayPruneParams {
  config: () => ResolvedConfig;
  env: Record<string, string | undefined>;
  logger: Logger;
  now: () => number;
  registry?: SandboxBackendRegistry;
}

/** One prune pass over every backend the sandboxed agents use; resolves to the count removed. */
export async function pruneGatewaySandboxes(params: GatewayPruneParams): Promise<number> {
  const cfg = params.config();
  if (listSandboxedAgents(cfg).length === 0) return 0;
  const registry = params.registry ?? defaultSandboxBackends();
  let removed = 0;
  for (const id of Object.keys(registry) as SandboxBackendId[]) {
    const backend = createSandboxBackend({
      registry,
      id,
      ctx: { env: params.env, logger: params.logger },
    });
    if (!backend.ok) continue;
    const available = await backend.value.available();
    if (!available.ok) continue;
    const pruned = await pruneSandboxes({
      cfg,
      backend: backend.value,
      now: params.now(),
      logger: params.logger,
    });
    removed += pruned.length;
  }
  return removed;
}

/** Starts the periodic prune; the returned timer is unref'd (it never keeps the process alive). */
export function startSandboxPrune(params: GatewayPruneParams): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    pruneGatewaySandboxes(params)
      .catch((err: unknown) => params.logger.warn(`sandbox prune failed: ${String(err)}`))
      .finally(() => {
        running = false;
      });
  }, SANDBOX_PRUNE_INTERVAL_MS);
  timer.unref();
  return timer;
}
