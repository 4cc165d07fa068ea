// Loads the ready hooks into a gateway's runner: discovery (folders + bundled), then each folder
// hook's handler module imported (its HOOK.md export, default `default`) and registered for its
// events; `agent:bootstrap` listeners are reached through the bootstrap registry, which turns the
// injected files into OpenClaw's `context.bootstrapFiles` and back. A hook that fails to import is
// logged with its name and left out; the others still load.
import { pathToFileURL } from "node:url";
import type { BootstrapHookRegistry, BootstrapSource } from "../agents/bootstrap-hooks.js";
import type { ResolvedConfig } from "../config/index.js";
import type { Logger } from "../lib/logger.js";
import { BUNDLED_HOOKS } from "./bundled/index.js";
import type { BundledHookServices } from "./bundled/types.js";
import { defaultWorkspace } from "./default-workspace.js";
import { discoverHooks } from "./discover.js";
import { createHookEvent, type HookRunner, withTimeLimit } from "./runner.js";
import type { HookRecord, InternalHookHandler } from "./types.js";

/** Inputs of {@link loadInternalHooks}. */
export interface LoadInternalHooksParams {
  logger: Logger;
  stateDir: string;
  env: Record<string, string | undefined>;
  config: () => ResolvedConfig;
  now: () => number;
  runner: HookRunner;
  bootstrap: BootstrapHookRegistry;
  services: BundledHookServices;
  /** Limit of one handler module's import (a top-level await that never ends is skipped). */
  timeoutMs: number;
}

/** What was loaded. */
export interface LoadedHooks {
  loaded: HookRecord[];
  failed: Array<{ hook: HookRecord; error: string }>;
}

export { defaultWorkspace };

async function importHandler(hook: HookRecord): Promise<InternalHookHandler> {
  if (!hook.handlerPath) throw new Error("no handler module");
  const mod = (await import(pathToFileURL(hook.handlerPath).href)) as Record<string, unknown>;
  const handler = mod[hook.exportName];
  if (typeof handler !== "function") {
    throw new Error(
      `${hook.handlerPath} has no function export "${hook.exportName}" (metadata.openclaw.export)`,
    );
  }
  return handler as InternalHookHandler;
}

/** Registers the `agent:bootstrap` bridge once: runner events in, the edited file list out. */
function bridgeBootstrap(params: LoadInternalHooksParams): void {
  params.bootstrap.register(
    async (ctx) => {
      const event = createHookEvent({
        type: "agent",
        action: "bootstrap",
        sessionKey: ctx.sessionKey ?? "",
        now: params.now,
        context: {
          bootstrapFiles: ctx.files,
          workspaceDir: ctx.workspaceDir,
          agentId: ctx.agentId,
          mode: ctx.mode,
          cfg: params.config().config,
        },
      });
      await params.runner.trigger(event);
      return event.context.bootstrapFiles as BootstrapSource[];
    },
    { name: "internal hooks" },
  );
}

/** Discovers and registers every ready hook; logs one line per registration, as OpenClaw. */
export async function loadInternalHooks(params: LoadInternalHooksParams): Promise<LoadedHooks> {
  const cfg = params.config();
  const workspaceDir = defaultWorkspace(cfg) ?? params.stateDir;
  const discovery = discoverHooks({
    workspaceDir,
    stateDir: params.stateDir,
    config: cfg.config,
    internal: cfg.config.hooks?.internal,
    env: params.env,
    bundled: BUNDLED_HOOKS.map((hook) => hook.metadata),
  });
  for (const problem of discovery.problems) {
    params.logger.warn({ path: problem.path }, `hooks: ${problem.source} ${problem.message}`);
  }
  const result: LoadedHooks = { loaded: [], failed: [] };
  let bootstrapWanted = false;
  for (const hook of discovery.hooks) {
    if (hook.status !== "ready") {
      if (hook.status === "invalid")
        params.logger.warn(
          { hook: hook.name, path: hook.location },
          `hook ${hook.name} skipped: ${hook.reason}`,
        );
      continue;
    }
    let handler: InternalHookHandler;
    try {
      const bundled = BUNDLED_HOOKS.find((candidate) => candidate.metadata.name === hook.name);
      handler =
        hook.source === "bundled" && bundled
          ? bundled.create(params.services)
          : await withTimeLimit(() => importHandler(hook), params.timeoutMs);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      params.logger.warn(
        { hook: hook.name, path: hook.location, error },
        `hook ${hook.name} failed to load; skipped`,
      );
      result.failed.push({ hook, error });
      continue;
    }
    for (const event of hook.events) {
      params.runner.register(event, { hook: hook.name, handler });
      if (event === "agent" || event === "agent:bootstrap") bootstrapWanted = true;
      params.logger.info(`Registered hook: ${hook.name} -> ${event}`);
    }
    result.loaded.push(hook);
  }
  if (bootstrapWanted) bridgeBootstrap(params);
  return result;
}
