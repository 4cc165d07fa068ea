// What every `pincer hooks` command starts from: the config loaded and the hooks discovered exactly
// as the gateway discovers them (the default agent's workspace, the state dir, bundled hooks and
// `hooks.internal.load.extraDirs`).
import type { LoadedConfig } from "../../config/index.js";
import { BUNDLED_HOOKS } from "../../hooks/bundled/index.js";
import { discoverHooks, listHookSourceDirs } from "../../hooks/discover.js";
import { defaultWorkspace } from "../../hooks/load.js";
import type { HookDiscovery, HookRecord } from "../../hooks/types.js";
import { type CliContext, CliError, displayPath } from "../command-context.js";
import { loadForCli } from "../load.js";

/** The loaded config and the discovery. */
export interface CliHooks {
  loaded: LoadedConfig;
  discovery: HookDiscovery;
  /** `hooks.internal.enabled`: without it the gateway runs no hook at all. */
  internalEnabled: boolean;
  /** The folders searched, as the user would write them. */
  searched: string[];
}

/** Loads the config and discovers the hooks. */
export function discoverForCli(ctx: CliContext): CliHooks {
  const loaded = loadForCli(ctx, { requireValid: false });
  const cfg = loaded.resolved;
  const internal = loaded.config.hooks?.internal;
  const params = {
    workspaceDir: defaultWorkspace(cfg) ?? loaded.paths.stateDir,
    stateDir: loaded.paths.stateDir,
    internal,
    env: loaded.env,
    home: loaded.paths.home,
  };
  const discovery = discoverHooks({
    ...params,
    config: loaded.config,
    bundled: BUNDLED_HOOKS.map((hook) => hook.metadata),
  });
  const searched = listHookSourceDirs(params).map(
    (src) => `${src.source} ${displayPath(src.dir, loaded.paths.home)}`,
  );
  return { loaded, discovery, internalEnabled: internal?.enabled === true, searched };
}

/** The winning record of a name (the one the gateway would run), or a failure naming the known ones. */
export function findHook(hooks: CliHooks, name: string): HookRecord {
  const records = hooks.discovery.hooks.filter((hook) => hook.name === name);
  const winner = records.find((hook) => hook.status !== "shadowed") ?? records[0];
  if (!winner) {
    const known = [...new Set(hooks.discovery.hooks.map((hook) => hook.name))].join(", ");
    throw new CliError(
      `no hook named "${name}" (found: ${known || "none"}; see pincer hooks list)`,
    );
  }
  return winner;
}
