// The stores of every agent of a config, opened once each. `session.store` may point several agents at
// one file (a template without `{agentId}`): they then share one store object, never two writers.
// With `cluster.store` (PostgreSQL) each agent's store lives in the database instead: `ready()` connects,
// creates the schema and loads the index once, after which `forAgent` stays synchronous.
import { resolveAgent } from "../agents/roster.js";
import type { StatePaths } from "../config/paths.js";
import type { Logger } from "../lib/logger.js";
import type { ClusterStoreConfig, OpenClawConfig } from "../protocol/config/index.js";
import type { StateDirLock } from "./lock.js";
import type { SessionMaintenanceConfig } from "./maintenance.js";
import type { PgSessionBackend } from "./postgres/backend.js";
import type { PgSessionStore } from "./postgres/pg-store.js";
import {
  type OpenSessionStoreParams,
  openSessionStore,
  type TranscriptDurability,
} from "./store.js";
import type { SessionStoreApi } from "./store-api.js";
import type { Scheduler } from "./store-persistence.js";
import type { Clock, IdSource } from "./types.js";

/** The config the registry reads: the roster plus `session.store` / `session.maintenance`. */
export type SessionsConfig = Pick<OpenClawConfig, "agents" | "agent" | "cluster"> & {
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

/** What `ready()` loaded from PostgreSQL: the pool and every agent's index rows. */
interface PgState {
  backend: PgSessionBackend;
  rows: Map<string, [string, string][]>;
  /** The store class, imported with the backend: a files-only process never loads the client. */
  Store: typeof PgSessionStore;
}

/** Lazily opened stores keyed by file path (PostgreSQL: by agent id); flush and close them together. */
export class SessionStoreRegistry {
  private readonly stores = new Map<string, SessionStoreApi>();
  private readonly byAgent = new Map<string, { cfg: object; id: string; store: SessionStoreApi }>();
  private pg: Promise<PgState> | undefined;
  private pgState: PgState | undefined;
  /** `cluster.store` as configured at construction: a reload cannot move the sessions (restart). */
  private readonly backend: ClusterStoreConfig | undefined;

  constructor(private readonly params: SessionStoreRegistryParams) {
    this.backend = params.cfg.cluster?.store;
  }

  /** Whether the sessions live in PostgreSQL (`cluster.store` as configured at construction). */
  get backendKind(): "files" | "postgres" {
    return this.backend?.kind === "postgres" ? "postgres" : "files";
  }

  /**
   * Prepares the backend: nothing for files; for PostgreSQL connects (a clear error naming the host),
   * creates the schema when missing and loads the index. Call (and await) it before `forAgent`.
   */
  ready(): Promise<void> {
    const store = this.backend;
    if (store?.kind !== "postgres") return Promise.resolve();
    this.pg ??= (async () => {
      const [{ openPgBackend }, { PgSessionStore }] = await Promise.all([
        import("./postgres/backend.js"),
        import("./postgres/pg-store.js"),
      ]);
      const backend = await openPgBackend({
        config: store,
        ...(this.params.logger ? { logger: this.params.logger } : {}),
      });
      const rows = await backend.loadAll();
      this.pgState = { backend, rows, Store: PgSessionStore };
      return this.pgState;
    })();
    this.pg.catch(() => {
      this.pg = undefined; // the caller got the error; a later ready() tries again
    });
    return this.pg.then(() => undefined);
  }

  /** The PostgreSQL backend once ready() resolved (undefined on files). */
  get postgres(): PgSessionBackend | undefined {
    return this.pgState?.backend;
  }

  /** The store of an agent (opened on first use). */
  forAgent(agentId: string): SessionStoreApi {
    // Hot path (every turn): the roster is resolved again only when the config object changed.
    const known = this.byAgent.get(agentId);
    if (known && known.cfg === this.params.cfg && this.stores.get(known.id) === known.store)
      return known.store;
    const { cfg, paths, ...rest } = this.params;
    const resolved = resolveAgent({ cfg, paths, agentId });
    const storePath = resolved.sessionStorePath;
    // The backend is the one configured at start, whatever a reloaded config says (restart to move).
    if (this.backend?.kind === "postgres") return this.pgStore(resolved.id, storePath);
    let store = this.stores.get(storePath);
    if (!store) {
      store = openSessionStore({
        ...rest,
        storePath,
        ...(cfg.session?.maintenance ? { maintenance: cfg.session.maintenance } : {}),
      });
      this.stores.set(storePath, store);
    }
    this.byAgent.set(agentId, { cfg, id: storePath, store });
    return store;
  }

  private pgStore(agentId: string, storePath: string): SessionStoreApi {
    const state = this.pgState;
    if (!state) {
      throw new Error("sessions are in PostgreSQL (cluster.store): await registry.ready() first");
    }
    const id = `pg:${agentId}`;
    let store = this.stores.get(id);
    if (!store) {
      const { cfg, logger, clock, ids, onLifecycle } = this.params;
      store = new state.Store({
        backend: state.backend,
        agentId,
        storePath,
        rows: state.rows.get(agentId) ?? [],
        ...(cfg.session?.maintenance ? { maintenance: cfg.session.maintenance } : {}),
        ...(logger ? { logger } : {}),
        ...(clock ? { clock } : {}),
        ...(ids ? { ids } : {}),
        ...(onLifecycle ? { onLifecycle } : {}),
      });
      state.rows.delete(agentId);
      this.stores.set(id, store);
    }
    this.byAgent.set(agentId, { cfg: this.params.cfg, id, store });
    return store;
  }

  /** Every store opened so far. */
  opened(): SessionStoreApi[] {
    return [...this.stores.values()];
  }

  /** Flushes every open store (one durable point for all agents). */
  async flushAll(): Promise<void> {
    await Promise.all(this.opened().map((store) => store.flush()));
  }

  /** Closes every open store (final snapshots, journals removed). */
  async closeAll(): Promise<void> {
    try {
      await Promise.all(this.opened().map((store) => store.close()));
    } finally {
      this.stores.clear();
      this.byAgent.clear();
      const state = this.pgState;
      this.pgState = undefined;
      this.pg = undefined;
      await state?.backend.close();
    }
  }
}
