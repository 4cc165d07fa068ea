// One agent's PostgreSQL store on its own pool, for a short-lived process (the CLI): connected, the
// schema ensured, that agent's index loaded; closing the store closes the pool.
import type { Logger } from "../../lib/logger.js";
import type { ClusterStoreConfig } from "../../protocol/config/index.js";
import type { SessionMaintenanceConfig } from "../maintenance.js";
import type { SessionStoreApi } from "../store-api.js";
import { openPgBackend } from "./backend.js";
import { PgSessionStore } from "./pg-store.js";

/** Opens the store of `agentId` in the `cluster.store` database (a clear error when unreachable). */
export async function openPgSessionStore(params: {
  config: ClusterStoreConfig;
  agentId: string;
  storePath: string;
  logger?: Logger;
  maintenance?: SessionMaintenanceConfig;
}): Promise<SessionStoreApi> {
  const backend = await openPgBackend({
    config: params.config,
    ...(params.logger ? { logger: params.logger } : {}),
  });
  try {
    const rows = await backend.loadAgent(params.agentId);
    return new PgSessionStore({
      backend,
      agentId: params.agentId,
      storePath: params.storePath,
      rows,
      ...(params.logger ? { logger: params.logger } : {}),
      ...(params.maintenance ? { maintenance: params.maintenance } : {}),
      onClose: () => backend.close(),
    });
  } catch (err) {
    await backend.close();
    throw err;
  }
}
