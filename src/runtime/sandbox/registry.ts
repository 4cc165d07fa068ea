// Which backend implements each `sandbox.backend` value. Each backend adds one line here; callers
// (tool routing, the CLI) take the registry as a parameter so tests can pass their own.
import type {
  SandboxBackend,
  SandboxBackendContext,
  SandboxBackendFactory,
  SandboxBackendId,
  SandboxResult,
} from "./backend.js";
import { createBwrapBackend } from "./bwrap/backend.js";
import { createDockerBackend } from "./docker/backend.js";

/** Backend factories by id; a missing id is reported as unavailable. */
export type SandboxBackendRegistry = Readonly<
  Partial<Record<SandboxBackendId, SandboxBackendFactory>>
>;

/** The backends this build ships. */
export function defaultSandboxBackends(): SandboxBackendRegistry {
  return { bwrap: createBwrapBackend, docker: createDockerBackend };
}

/** The backend `id` from `registry`, or an error saying this build has none. */
export function createSandboxBackend(params: {
  registry: SandboxBackendRegistry;
  id: SandboxBackendId;
  ctx: SandboxBackendContext;
}): SandboxResult<SandboxBackend> {
  const factory = params.registry[params.id];
  if (!factory)
    return {
      ok: false,
      error: `sandbox.backend "${params.id}" is not available in this Pincer build; use ${Object.keys(
        params.registry,
      )
        .map((id) => `"${id}"`)
        .join(" or ")}.`,
    };
  return { ok: true, value: factory(params.ctx) };
}
