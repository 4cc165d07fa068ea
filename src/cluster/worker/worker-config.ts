// A worker's config, kept live like the gateway's (config/live-config.ts): openclaw.json and its
// $include files are watched, a valid change applies to the turns that start after it (models,
// tools, prompts, auth, env vars, `agents.defaults.maxConcurrent` unless --concurrency pinned it),
// an invalid one (syntax, schema, an unknown model ref) is logged once and the running config kept.
// The queue and the session store (`cluster.queue`, `cluster.store`) are bound at start: a change
// there is logged as needing a restart.

import { refreshEnv } from "../../config/config-env.js";
import { type LoadConfigOptions, type LoadedConfig, maxConcurrentOf } from "../../config/index.js";
import { LiveConfig } from "../../config/live-config.js";
import type { Logger } from "../../lib/logger.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { WORKER_RESTART_KEYS } from "../../protocol/config/restart-keys.js";
import { withModelRefIssues } from "../../runtime/models/model-ref-rules.js";

/** Inputs of {@link openWorkerConfig}. */
export interface WorkerConfigParams {
  /** The config as loaded at start (valid). */
  loaded: LoadedConfig<OpenClawConfig>;
  /** How it was loaded (env, profile): every reload loads the same way. */
  load: LoadConfigOptions;
  /** `--concurrency`: pins the turns in flight (otherwise the config's, live). */
  concurrency?: number;
  logger: Logger;
  now?: () => number;
  /** Told after a change was applied (the new config is `live.resolved`). */
  onChange: () => void;
}

/** The worker's live config, the env object its turns read (refreshed in place) and its cap. */
export interface WorkerConfig {
  live: LiveConfig;
  env: Record<string, string | undefined>;
  /** Turns in flight at once now: the flag's, else `agents.defaults.maxConcurrent` (4 unset). */
  concurrency: () => number;
}

/** The start config checked as a reload is (unknown model refs are errors), or the issues' text. */
export function checkWorkerConfig(
  loaded: LoadedConfig<OpenClawConfig>,
): LoadedConfig<OpenClawConfig> {
  return withModelRefIssues(loaded, loaded.env);
}

/** Builds the live config (not watching yet: call `live.watch()` once the worker runs). */
export function openWorkerConfig(params: WorkerConfigParams): WorkerConfig {
  const { loaded, logger } = params;
  const env = { ...loaded.env };
  const pinned = params.concurrency;
  const live: LiveConfig = new LiveConfig({
    load: { ...params.load, paths: loaded.paths, configPath: loaded.path },
    initial: loaded,
    logger,
    now: params.now ?? Date.now,
    restartKeys: WORKER_RESTART_KEYS,
    check: checkWorkerConfig,
    onChange: () => {
      refreshEnv(env, live.loaded.env);
      params.onChange();
    },
  });
  const concurrency = () => Math.max(1, Math.floor(pinned ?? maxConcurrentOf(live.resolved)));
  return { live, env, concurrency };
}
