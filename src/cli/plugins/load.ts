// Loading the plugins for the CLI exactly as the gateway does (the same config, the same state
// dir), without starting it: their register functions run here, in this process.
import { dirname } from "node:path";
import { silentLogger } from "../../lib/logger.js";
import { loadPlugins, type PluginRegistry } from "../../plugins/index.js";
import type { CliContext } from "../command-context.js";
import { loadForCli } from "../load.js";

/** The registry the gateway would build, with the built-in command clashes noted. */
export async function loadPluginsForCli(ctx: CliContext): Promise<PluginRegistry> {
  const loaded = loadForCli(ctx, { requireValid: true });
  const registry = await loadPlugins({
    config: loaded.config.plugins,
    stateDir: loaded.paths.stateDir,
    home: loaded.paths.home,
    baseDir: dirname(loaded.path),
    logger: silentLogger,
  });
  if (registry.commands.length > 0) {
    const [{ BUILTIN_COMMANDS }, { pluginCommandDefinitions }] = await Promise.all([
      import("../../channels/commands/service.js"),
      import("../../plugins/commands.js"),
    ]);
    pluginCommandDefinitions({ registry, builtin: BUILTIN_COMMANDS, logger: silentLogger });
  }
  return registry;
}
