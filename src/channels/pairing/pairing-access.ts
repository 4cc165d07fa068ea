// Which pairing store a process uses: the credentials files by default, the PostgreSQL documents
// with `cluster.store` (pg-pairing.ts). The gateway holds one for its life (opened once the database
// is, before the channels start, refreshed every couple of seconds); the CLI opens one per command.
import type { Logger } from "../../lib/logger.js";
import type { ClusterStoreConfig } from "../../protocol/config/index.js";
import type { PgSessionBackend } from "../../sessions/postgres/backend.js";
import { createPairingStore, type PairingStore } from "./pairing-store.js";
import { openPgPairingStore, PG_PAIRING_REFRESH_MS, type PgPairingStore } from "./pg-pairing.js";

/** The gateway's pairing store: `store()` is the files, or once `open()` resolved, PostgreSQL. */
export interface PairingAccess {
  store(): PairingStore;
  /** Loads the PostgreSQL documents (no-op on files); the channels start after it. */
  open(): Promise<void>;
  /** Stops the refresh and flushes the pending writes. */
  close(): Promise<void>;
}

/** The gateway's pairing access; `postgres` (cluster.store) returns the backend once it is open. */
export function createPairingAccess(params: {
  stateDir: string;
  now: () => number;
  logger: Logger;
  postgres?: () => PgSessionBackend | undefined;
  refreshMs?: number;
}): PairingAccess {
  const { postgres } = params;
  if (!postgres) {
    const files = createPairingStore({ stateDir: params.stateDir, now: params.now });
    return { store: () => files, open: async () => {}, close: async () => {} };
  }
  let pg: PgPairingStore | undefined;
  let opening: Promise<void> | undefined;
  return {
    store() {
      if (!pg) throw new Error("pairing store in PostgreSQL used before the database was opened");
      return pg;
    },
    open() {
      opening ??= (async () => {
        const backend = postgres();
        if (!backend) throw new Error("pairing store: the PostgreSQL store is not open");
        pg = await openPgPairingStore({
          backend,
          logger: params.logger,
          now: params.now,
          refreshMs: params.refreshMs ?? PG_PAIRING_REFRESH_MS,
        });
      })();
      opening.catch(() => {
        opening = undefined; // the caller got the error; a later open() tries again
      });
      return opening;
    },
    async close() {
      await pg?.close();
    },
  };
}

/** A short-lived pairing store (the CLI): `done()` flushes (throwing if a write failed) and closes. */
export async function openCliPairingStore(params: {
  stateDir: string;
  cluster: ClusterStoreConfig | undefined;
  logger: Logger;
}): Promise<{ store: PairingStore; done: () => Promise<void> }> {
  const { cluster } = params;
  if (cluster?.kind !== "postgres")
    return { store: createPairingStore({ stateDir: params.stateDir }), done: async () => {} };
  const { openPgBackend } = await import("../../sessions/postgres/backend.js");
  const backend = await openPgBackend({ config: cluster, logger: params.logger });
  try {
    const store = await openPgPairingStore({ backend, logger: params.logger });
    return {
      store,
      async done() {
        try {
          await store.flush();
        } finally {
          await backend.close();
        }
      },
    };
  } catch (err) {
    await backend.close();
    throw err;
  }
}
