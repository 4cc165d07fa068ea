// The DM pairing store in PostgreSQL (cluster.store): the same documents as the credentials files,
// as rows of `<schema>.documents` named `pairing/<channel>` and `allowFrom/<channel>/<accountId>`.
// The API is synchronous (allowFrom runs for every inbound message), so the rows are loaded into
// memory at open, every change applies in memory at once and is written through (one upsert per
// document, in order), and `refresh()` picks up what other processes wrote (the CLI's approvals):
// rows whose updated_at (the database's clock) is newer than the last seen, minus a margin for
// transactions that committed late. The gateway refreshes every couple of seconds.
import type { Logger } from "../../lib/logger.js";
import type { PgSessionBackend } from "../../sessions/postgres/backend.js";
import {
  allowFromList,
  type PairingDocuments,
  type PairingStore,
  pairingStoreOver,
} from "./pairing-store.js";

/** How often the gateway looks for rows written by other processes. */
export const PG_PAIRING_REFRESH_MS = 2_000;
/** Rows this much older than the newest seen are read again (a late commit is not missed). */
const REFRESH_MARGIN_MS = 10_000;

/** The pairing store over PostgreSQL documents, with the write-through and refresh controls. */
export interface PgPairingStore extends PairingStore {
  /** Reads the rows other processes changed since the last refresh (local pending writes win). */
  refresh(): Promise<void>;
  /** Resolves once every write so far reached PostgreSQL; rejects naming the writes that failed. */
  flush(): Promise<void>;
  /** Stops the refresh timer and flushes (failures are logged, not thrown). */
  close(): Promise<void>;
}

interface Held {
  text: string;
  value: unknown;
  senders: string[];
}

const pairingName = (channel: string) => `pairing/${channel}`;
const allowFromName = (channel: string, accountId: string) => `allowFrom/${channel}/${accountId}`;

interface DocumentRow {
  name: string;
  doc: string;
  updated_at: string | number;
}

async function readRows(backend: PgSessionBackend, since: number): Promise<DocumentRow[]> {
  const { sql, schema } = backend;
  return sql<DocumentRow[]>`select name, doc::text as doc, updated_at
    from ${sql(schema)}.documents
    where updated_at > ${since} and (name like 'pairing/%' or name like 'allowFrom/%')`;
}

/** Loads the pairing rows and returns the store; `refreshMs` 0 (the CLI) runs no timer. */
export async function openPgPairingStore(params: {
  backend: PgSessionBackend;
  logger: Logger;
  refreshMs?: number;
  now?: () => number;
  random?: (n: number) => number;
}): Promise<PgPairingStore> {
  const { backend, logger } = params;
  const held = new Map<string, Held>();
  const pending = new Map<string, number>();
  const failed: string[] = [];
  // Local writes are numbered: a refresh ignores rows of documents written since it started.
  const wroteAt = new Map<string, number>();
  let writes = 0;
  let lastSeen = 0;
  let tail: Promise<void> = Promise.resolve();

  const hold = (name: string, text: string) => {
    const value: unknown = JSON.parse(text);
    held.set(name, { text, value, senders: allowFromList(value) });
  };
  const apply = (rows: DocumentRow[], startedAt: number) => {
    for (const row of rows) {
      const updatedAt = Number(row.updated_at);
      lastSeen = Math.max(lastSeen, updatedAt);
      // Written here since the read started, or still on its way: the local copy is newer.
      if ((wroteAt.get(row.name) ?? 0) > startedAt || (pending.get(row.name) ?? 0) > 0) continue;
      if (held.get(row.name)?.text === row.doc) continue;
      try {
        hold(row.name, row.doc);
      } catch (err) {
        logger.error(
          { document: row.name, where: backend.where, error: String(err) },
          "unreadable pairing document in PostgreSQL: kept the previous copy",
        );
      }
    }
  };
  const write = (name: string, doc: unknown) => {
    const text = JSON.stringify(doc);
    hold(name, text);
    wroteAt.set(name, ++writes);
    pending.set(name, (pending.get(name) ?? 0) + 1);
    const { sql, schema } = backend;
    tail = tail.then(async () => {
      try {
        await sql`insert into ${sql(schema)}.documents (name, doc, updated_at)
          values (${name}, ${text}::text::json,
            (extract(epoch from clock_timestamp()) * 1000)::bigint)
          on conflict (name) do update set doc = excluded.doc, updated_at = excluded.updated_at`;
      } catch (err) {
        failed.push(name);
        logger.error(
          { document: name, where: backend.where, error: String(err) },
          "pairing document not written to PostgreSQL (kept in memory only)",
        );
      } finally {
        pending.set(name, (pending.get(name) ?? 1) - 1);
      }
    });
  };

  apply(await readRows(backend, -1), 0);
  const documents: PairingDocuments = {
    dir: backend.where,
    readPairing: (channel) => held.get(pairingName(channel))?.value,
    writePairing: (channel, doc) => write(pairingName(channel), doc),
    readAllowFrom: (channel, accountId) =>
      held.get(allowFromName(channel, accountId))?.senders ?? [],
    writeAllowFrom: (channel, accountId, doc) => write(allowFromName(channel, accountId), doc),
    pairingChannels: () =>
      [...held.keys()]
        .filter((name) => name.startsWith("pairing/"))
        .map((name) => name.slice("pairing/".length)),
  };
  const store = pairingStoreOver({
    documents,
    ...(params.now ? { now: params.now } : {}),
    ...(params.random ? { random: params.random } : {}),
  });

  let refreshing: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    const startedAt = writes;
    refreshing ??= readRows(backend, lastSeen - REFRESH_MARGIN_MS)
      .then((rows) => apply(rows, startedAt))
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };
  const flush = async () => {
    await tail;
    if (failed.length === 0) return;
    const names = [...new Set(failed.splice(0))].join(", ");
    throw new Error(`pairing documents not written to ${backend.where}: ${names}`);
  };
  const refreshMs = params.refreshMs ?? 0;
  const timer =
    refreshMs > 0
      ? setInterval(() => {
          refresh().catch((err: unknown) => {
            logger.warn(
              { where: backend.where, error: String(err) },
              "pairing refresh from PostgreSQL failed (retrying)",
            );
          });
        }, refreshMs)
      : undefined;
  timer?.unref();

  return {
    ...store,
    refresh,
    flush,
    async close() {
      if (timer) clearInterval(timer);
      await refreshing?.catch(() => undefined);
      await flush().catch((err: unknown) => {
        logger.error({ error: String(err) }, "pairing store closed with unwritten documents");
      });
    },
  };
}
