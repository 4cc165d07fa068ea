// The gateway's plugin start: load the configured plugins once (never fatal: a failure is logged
// and the gateway runs without them) and give back their registry and host, plus the session
// stores' listener for the session hooks.
import { dirname } from "node:path";
import type { Logger } from "../lib/logger.js";
import type { PluginsConfig } from "../protocol/config/index.js";
import type { SessionLifecycleEvent } from "../sessions/index.js";
import { loadPluginHost, type PluginHost } from "./host.js";
import { sessionLifecycleListener } from "./session-hooks.js";
import type { PluginRegistry } from "./types.js";

/** The gateway's loaded plugins. */
export interface GatewayPlugins {
  registry: PluginRegistry;
  host?: PluginHost;
  onSessionLifecycle?: (event: SessionLifecycleEvent) => void;
}

/** Loads the plugins for a gateway (its config's `plugins`, its state dir's extensions). */
export async function loadGatewayPlugins(params: {
  config: PluginsConfig | undefined;
  stateDir: string;
  home: string;
  configPath: string;
  logger: Logger;
}): Promise<GatewayPlugins> {
  try {
    const { registry, host } = await loadPluginHost({
      config: params.config,
      stateDir: params.stateDir,
      home: params.home,
      baseDir: dirname(params.configPath),
      logger: params.logger,
    });
    const onSessionLifecycle = host ? sessionLifecycleListener(host.hooks) : undefined;
    return {
      registry,
      ...(host ? { host } : {}),
      ...(onSessionLifecycle ? { onSessionLifecycle } : {}),
    };
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    params.logger.error({ error }, "plugins could not be loaded; the gateway runs without them");
    return { registry: { plugins: [], hooks: [], tools: [], commands: [], methods: [] } };
  }
}
