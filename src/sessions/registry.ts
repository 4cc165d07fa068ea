// The stores of every agent of a config, opened once each. `session.store` may point several agents at
// one file (a template without `{agentId}`): they then share one store object, never two writers.
import { resolveAgent } from "../agents/roster.js";
import type { StatePaths } from "../config/paths.js";
import type { Logger } from "../lib/logger.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import type { StateDirLock } from "./lock.js";
import type { SessionMaintenanceConfig } from "./maintenance.js";
import {
  type OpenSessionStoreParams,
  openSessionStore,
  type SessionStore,
  type TranscriptDurability,
} from "./store.js";
import type { Scheduler } from "./store-persistence.js";
import type { Clock, IdSource } from "./types.js";

/** The config the registry reads: the roster plus `session.store` / `session.maintenance`. */
export type SessionsConfig = Pick<OpenClawConfig, "agents" | "agent"> & {
  session?: OpenClawConfig["session"] & { maintenance?: SessionMaintenanceConfig };
};

/** Inputs for {@link SessionStoreRegistry}. */
export interface SessionStoreRegistryParams {
  cfg: SessionsConfig;
  paths: StatePaths;
  /** Held state-dir lock (the gateway's); without it every store is read-only. */
  lock?: StateDirLock;
  clock?: Clock;
  logger?: Logger;
  ids?: IdSource;
  transcriptDurability?: TranscriptDurability;
  snapshotIntervalMs?: number;
  scheduler?: Scheduler;
  /** Told when a session of any store starts or ends (see OpenSessionStoreParams.onLifecycle). */
  onLifecycle?: OpenSessionStoreParams["onLifecycle"];
}

/** Lazily opened stores keyed by file path; flush and close them together. */
export class SessionStoreRegistry {
  private readonly stores = new Map<string, SessionStore>();
  private readonly byAgent = new Map<string, { cfg: object; store: SessionStore }>();

  constructor(private readonly params: SessionStoreRegistryParams) {}

  /** The store of an agent (opened on first use). */
  forAgent(agentId: string): SessionStore {
    // Hot path (every turn): the roster is resolved again only when the config object changed.
    const known = this.byAgent.get(agentId);
    if (
      known &&
      known.cfg === this.params.cfg &&
      this.stores.get(known.store.storePath) === known.store
    )
      return known.store;
    const { cfg, paths, ...rest } = this.params;
    const storePath = resolveAgent({ cfg, paths, agentId }).sessionStorePath;
    let store = this.stores.get(storePath);
    if (!store) {
      store = openSessionStore({
        ...rest,
        storePath,
        ...(cfg.session?.maintenance ? { maintenance: cfg.session.maintenance } : {}),
      });
      this.stores.set(storePath, store);
    }
    this.byAgent.set(agentId, { cfg, store });
    return store;
  }

  /** Every store opened so far. */
  opened(): SessionStore[] {
    return [...this.stores.values()];
  }

  /** Flushes every open store (one durable point for all agents). */
  async flushAll(): Promise<void> {
    await Promise.all(this.opened().map((store) => store.flush()));
  }

  /** Closes every open store (final snapshots, journals removed). */
  async closeAll(): Promise<void> {
    await Promise.all(this.opened().map((store) => store.close()));
    this.stores.clear();
    this.byAgent.clear();
  }
}
