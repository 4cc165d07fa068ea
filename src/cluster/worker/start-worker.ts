// What `pincer worker` runs: from the loaded openclaw.json, the runtime a turn needs (session
// stores, lanes, process registry, caches) and the run queue, then the pull loop until stopped.
// Sessions come from `cluster.store` (PostgreSQL: shared with the gateway and the other workers).
// Without it the worker keeps its own file store under its state dir, locked like a gateway's: fine
// for one worker on the gateway's host, wrong for several (each would see only its own history).
import {
  formatConfigIssues,
  type LoadConfigOptions,
  type LoadedConfig,
  redactIssues,
} from "../../config/index.js";
import type { Logger } from "../../lib/logger.js";
import { createLaneScheduler } from "../../runtime/lanes/index.js";
import { type AgentRuntimeDeps, createRunCaches } from "../../runtime/run/index.js";
import { ProcessRegistry } from "../../runtime/tools/index.js";
import { acquireStateDirLock, SessionStoreRegistry } from "../../sessions/index.js";
import { NatsQueue } from "../queue/nats-queue.js";
import { resolveQueueSettings } from "../queue/settings.js";
import { remoteApprovals } from "./remote-approvals.js";
import { hostCaller, remoteToolHosts } from "./remote-tool-hosts.js";
import { runWorkerLoop } from "./worker.js";
import { checkWorkerConfig, openWorkerConfig } from "./worker-config.js";
import { loadWorkerExtensions, type WorkerExtensions } from "./worker-extensions.js";

/** Inputs of {@link startWorker}. */
export interface StartWorkerParams {
  loaded: LoadedConfig;
  /** How `loaded` was loaded (env, profile): reloads of the watched file load the same way. */
  load: LoadConfigOptions;
  /** Turns in flight at once (default agents.defaults.maxConcurrent, live, else 4). */
  concurrency?: number;
  logger: Logger;
  signal: AbortSignal;
  drainMs?: number;
}

/** Runs a worker to its stop; throws when it cannot start (no `cluster.queue`, NATS unreachable). */
export async function startWorker(params: StartWorkerParams): Promise<void> {
  const { logger } = params;
  const loaded = checkWorkerConfig(params.loaded);
  // Checked as every reload is: an unknown model ref refuses the start with the located issue.
  if (!loaded.valid)
    throw new Error(formatConfigIssues({ path: loaded.path, issues: redactIssues(loaded.issues) }));
  const queueConfig = loaded.config.cluster?.queue;
  if (!queueConfig) throw new Error("no cluster.queue in the config: nothing to pull turns from");
  // Runs read the config as it is when they start; `deps` is rebuilt on each applied reload.
  const config = openWorkerConfig({
    loaded,
    load: params.load,
    ...(params.concurrency !== undefined ? { concurrency: params.concurrency } : {}),
    logger,
    onChange: () => {
      lanes.setMaxConcurrent(config.concurrency());
      deps = { ...deps, config: config.live.resolved };
    },
  });
  const shared = loaded.config.cluster?.store !== undefined;
  if (!shared)
    logger.warn(
      { stateDir: loaded.paths.stateDir },
      "worker: no cluster.store; sessions are kept in this worker's own state dir (one worker only)",
    );
  const lock = shared
    ? undefined
    : acquireStateDirLock({ stateDir: loaded.paths.stateDir, command: "pincer worker", logger });
  const stores = new SessionStoreRegistry({
    // A getter: a reload's session.store / maintenance apply; the backend stays the start's.
    get cfg() {
      return config.live.config;
    },
    paths: loaded.paths,
    ...(lock ? { lock } : {}),
    logger,
  });
  const jobs = new ProcessRegistry();
  const settings = resolveQueueSettings(queueConfig);
  // The partitions already serialize each session; the lanes only cap this process.
  const lanes = createLaneScheduler({ maxConcurrent: config.concurrency() });
  let queue: NatsQueue | undefined;
  let extensions: WorkerExtensions | undefined;
  let deps: AgentRuntimeDeps = {
    config: loaded.resolved,
    paths: loaded.paths,
    env: config.env,
    stores,
    lanes,
    jobs,
    log: logger,
    caches: createRunCaches(),
    // cron and nodes calls, and exec approvals, go to the gateway over the queue's connection
    // (opened below).
    ...remoteToolHosts({ queue: () => queue }),
    approvals: remoteApprovals(hostCaller(() => queue)),
  };
  try {
    // PostgreSQL: connect, create the schema when missing, load the index (files: nothing to do).
    await stores.ready();
    extensions = await loadWorkerExtensions({
      loaded,
      config: () => config.live.resolved,
      env: config.env,
      stores,
      logger,
    });
    deps = {
      ...deps,
      ...(extensions.plugins ? { plugins: extensions.plugins } : {}),
      bootstrapHooks: extensions.bootstrapHooks,
    };
    queue = await NatsQueue.open({ settings, name: `pincer-worker-${process.pid}`, logger });
    await queue.ensureTopology();
    config.live.watch();
    await runWorkerLoop({
      queue,
      deps: () => deps,
      concurrency: config.concurrency,
      logger,
      signal: params.signal,
      ...(params.drainMs !== undefined ? { drainMs: params.drainMs } : {}),
    });
  } finally {
    config.live.close();
    await queue?.close(logger);
    await extensions?.close();
    await jobs.stopAll();
    await stores.closeAll();
    lock?.release();
  }
}
