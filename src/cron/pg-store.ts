// The cron jobs in PostgreSQL (cluster.store): jobs.json's `{version: 1, jobs}` as the document
// `cron/jobs` of `<schema>.documents`. Read once when the service starts (after the gateway opened the
// database); every save replaces the document in memory and is written through (one upsert, in
// order); failures are logged and `flush()` reports them. The run logs stay on disk (`runs/`).
import type { Logger } from "../lib/logger.js";
import type { PgSessionBackend } from "../sessions/postgres/backend.js";
import { type CronStorage, cronStoreDocument, parseCronStore } from "./store.js";

/** The document name of the jobs. */
export const CRON_JOBS_DOCUMENT = "cron/jobs";

/** The jobs over the backend `backend()` returns (resolved when the service starts). */
export function pgCronStorage(params: {
  backend: () => PgSessionBackend | undefined;
  logger: Logger;
}): CronStorage {
  const { logger } = params;
  let text: string | undefined;
  let tail: Promise<void> = Promise.resolve();
  const failed: string[] = [];
  const use = (): PgSessionBackend => {
    const backend = params.backend();
    if (!backend) throw new Error("cron store in PostgreSQL used before the database was opened");
    return backend;
  };
  const where = () => `${params.backend()?.where ?? "postgres"} ${CRON_JOBS_DOCUMENT}`;
  return {
    get where() {
      return where();
    },
    async ready() {
      const { sql, schema } = use();
      const [row] = await sql<{ doc: string }[]>`select doc::text as doc
        from ${sql(schema)}.documents where name = ${CRON_JOBS_DOCUMENT}`;
      text = row?.doc;
    },
    load: () =>
      text === undefined
        ? { ok: true, jobs: [], invalid: [], existed: false }
        : parseCronStore(text, where()),
    save(jobs) {
      const written = JSON.stringify(cronStoreDocument(jobs));
      text = written;
      const { sql, schema } = use();
      tail = tail.then(async () => {
        try {
          await sql`insert into ${sql(schema)}.documents (name, doc, updated_at)
            values (${CRON_JOBS_DOCUMENT}, ${written}::text::json,
              (extract(epoch from clock_timestamp()) * 1000)::bigint)
            on conflict (name) do update set doc = excluded.doc, updated_at = excluded.updated_at`;
        } catch (err) {
          failed.push(String(err));
          logger.error(
            { document: CRON_JOBS_DOCUMENT, where: where(), error: String(err) },
            "cron jobs not written to PostgreSQL (kept in memory only)",
          );
        }
      });
    },
    async flush() {
      await tail;
      if (failed.length > 0)
        throw new Error(`cron jobs not written to ${where()}: ${failed.splice(0).join("; ")}`);
    },
  };
}
