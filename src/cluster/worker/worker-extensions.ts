// The plugins and internal hooks of a worker's runs. A worker loads the same plugins as the gateway
// (`plugins.load.paths` of the shared openclaw.json, then its own `<stateDir>/extensions`) and, when
// `hooks.internal.enabled`, the same internal hooks (the workspace's `hooks/`, its own
// `<stateDir>/hooks`, the bundled ones), and gives its runs what runs on the turn's side: the
// plugins' run hooks (model and prompt changes, tool calls, `agent_end`, …) and plugin tools, and
// the `agent:bootstrap` hooks. Message, session, command and gateway hooks, plugin chat commands and
// gateway methods stay the gateway's (it owns the channels, the sessions' lifecycle and the WS
// surface), so none runs twice. Loading never stops the worker: a failure is logged and it runs
// without them, as the gateway does.
import { dirname } from "node:path";
import type { BootstrapHookRegistry } from "../../agents/bootstrap-hooks.js";
import type { LoadedConfig, ResolvedConfig } from "../../config/index.js";
import { createGatewayHooks } from "../../hooks/gateway-hooks.js";
import type { Logger } from "../../lib/logger.js";
import { loadPluginHost, type PluginHost } from "../../plugins/index.js";
import type { SessionStoreRegistry } from "../../sessions/index.js";

/** What a worker's runs get, and how to let go of it. */
export interface WorkerExtensions {
  plugins?: PluginHost;
  bootstrapHooks: BootstrapHookRegistry;
  /** Waits for hook work in flight. */
  close(): Promise<void>;
}

/** Inputs of {@link loadWorkerExtensions}. */
export interface WorkerExtensionsParams {
  loaded: LoadedConfig;
  /** The live config (hooks read it when they run). */
  config: () => ResolvedConfig;
  env: Record<string, string | undefined>;
  stores: SessionStoreRegistry;
  logger: Logger;
}

async function loadPlugins(params: WorkerExtensionsParams): Promise<PluginHost | undefined> {
  const { loaded, logger } = params;
  try {
    const { host } = await loadPluginHost({
      config: loaded.config.plugins,
      stateDir: loaded.paths.stateDir,
      home: loaded.paths.home,
      baseDir: dirname(loaded.path),
      logger,
    });
    return host;
  } catch (err) {
    logger.error(
      { error: String(err) },
      "plugins could not be loaded; the worker runs without them",
    );
    return undefined;
  }
}

/** Loads the plugins and internal hooks (both bounded; never throws). */
export async function loadWorkerExtensions(
  params: WorkerExtensionsParams,
): Promise<WorkerExtensions> {
  const { logger } = params;
  const hooks = createGatewayHooks({
    logger,
    stateDir: params.loaded.paths.stateDir,
    env: params.env,
    config: params.config,
    now: Date.now,
    stores: () => params.stores,
    // Only `gateway:startup` hooks (boot-md) start turns, and a worker never fires it.
    startTurn: async (turn) => {
      logger.warn(
        { sessionKey: turn.sessionKey },
        "worker: a hook's turn is the gateway's; not run",
      );
    },
  });
  const [plugins] = await Promise.all([loadPlugins(params), hooks.load()]);
  return {
    ...(plugins ? { plugins } : {}),
    bootstrapHooks: hooks.bootstrap,
    close: () => hooks.close(),
  };
}
