// The gateway's plugins once loaded: the registry (records for `plugins list` and status), the hook
// runner and the run-time plugin tools. No plugin found or enabled: no host at all, so every call
// site is a single `undefined` check and a plugin-free gateway pays nothing.
import type { Logger } from "../lib/logger.js";
import type { PluginsConfig } from "../protocol/config/index.js";
import type { AnyAgentTool } from "../runtime/tools/types.js";
import { createHookRunner, type PluginHookRunner } from "./hook-runner.js";
import { type LoadPluginsParams, loadPlugins } from "./loader.js";
import { resolvePluginTools } from "./tool-hooks.js";
import type { PluginRegistry, PluginToolContext } from "./types.js";

/** The loaded plugins as the gateway uses them. */
export interface PluginHost {
  readonly registry: PluginRegistry;
  readonly hooks: PluginHookRunner;
  /** The plugin tools of one run (factories called now); empty when no plugin registered any. */
  tools(ctx: PluginToolContext): AnyAgentTool[];
}

function promptInjectionOff(config: PluginsConfig | undefined): Set<string> {
  const off = new Set<string>();
  for (const [id, entry] of Object.entries(config?.entries ?? {})) {
    const hooks = (entry as { hooks?: { allowPromptInjection?: unknown } } | undefined)?.hooks;
    if (hooks?.allowPromptInjection === false) off.add(id);
  }
  return off;
}

/** A host over a loaded registry; undefined when no plugin loaded. */
export function createPluginHost(params: {
  registry: PluginRegistry;
  config: PluginsConfig | undefined;
  logger: Logger;
}): PluginHost | undefined {
  const { registry, logger } = params;
  if (!registry.plugins.some((plugin) => plugin.status === "loaded")) return undefined;
  const hooks = createHookRunner({
    hooks: registry.hooks,
    logger,
    noPromptInjection: promptInjectionOff(params.config),
  });
  return {
    registry,
    hooks,
    tools: (ctx) =>
      registry.tools.length === 0 ? [] : resolvePluginTools({ tools: registry.tools, ctx, logger }),
  };
}

/** Loads the configured plugins and builds the host: the registry always (for reporting), the
 *  host only when a plugin loaded. */
export async function loadPluginHost(
  params: LoadPluginsParams,
): Promise<{ registry: PluginRegistry; host: PluginHost | undefined }> {
  const registry = await loadPlugins(params);
  return {
    registry,
    host: createPluginHost({ registry, config: params.config, logger: params.logger }),
  };
}
