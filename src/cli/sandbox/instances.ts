// What `sandbox list` and `recreate` share: every backend's sandboxes, each with whether its config
// still matches (a stale one is recreated on next use anyway).
import type { ResolvedConfig } from "../../config/resolve.js";
import type { SandboxBackendId, SandboxInstance } from "../../runtime/sandbox/backend.js";
import { sandboxWorkspaceRoots } from "../../runtime/sandbox/prune.js";
import {
  createSandboxBackend,
  defaultSandboxBackends,
  type SandboxBackendRegistry,
} from "../../runtime/sandbox/registry.js";
import { resolveSandboxSpec } from "../../runtime/sandbox/spec.js";

/** One sandbox as the CLI shows it. */
export interface ListedSandbox extends SandboxInstance {
  /** False when the current config would build it differently (it is recreated on next use). */
  current: boolean;
}

/** A backend that could not be asked (not installed, daemon down). */
export interface BackendProblem {
  backend: SandboxBackendId;
  error: string;
}

/** Every sandbox of every backend in `registry` (default: this build's), plus unreachable backends. */
export async function listAllSandboxes(params: {
  cfg: ResolvedConfig;
  env: NodeJS.ProcessEnv;
  registry?: SandboxBackendRegistry;
}): Promise<{ sandboxes: ListedSandbox[]; problems: BackendProblem[] }> {
  const registry = params.registry ?? defaultSandboxBackends();
  const sandboxes: ListedSandbox[] = [];
  const problems: BackendProblem[] = [];
  const workspaceRoots = sandboxWorkspaceRoots(params.cfg);
  for (const id of Object.keys(registry) as SandboxBackendId[]) {
    const backend = createSandboxBackend({ registry, id, ctx: { env: params.env } });
    if (!backend.ok) continue;
    const available = await backend.value.available();
    if (!available.ok) {
      problems.push({ backend: id, error: available.reason });
      continue;
    }
    const listed = await backend.value.list({ workspaceRoots });
    if (!listed.ok) {
      problems.push({ backend: id, error: listed.error });
      continue;
    }
    for (const instance of listed.value) {
      const spec = resolveSandboxSpec({
        cfg: params.cfg,
        agentId: instance.agentId,
        sessionKey: instance.sessionKey ?? `agent:${instance.agentId}:main`,
      });
      const current = spec.ok && spec.value.configHash === instance.configHash;
      sandboxes.push({ ...instance, current });
    }
  }
  return { sandboxes, problems };
}

/** Removes one listed sandbox through its backend; the error text on failure. */
export async function removeSandbox(params: {
  sandbox: SandboxInstance;
  env: NodeJS.ProcessEnv;
  registry?: SandboxBackendRegistry;
}): Promise<string | undefined> {
  const registry = params.registry ?? defaultSandboxBackends();
  const backend = createSandboxBackend({
    registry,
    id: params.sandbox.backend,
    ctx: { env: params.env },
  });
  if (!backend.ok) return backend.error;
  const removed = await backend.value.remove(params.sandbox);
  return removed.ok ? undefined : removed.error;
}
