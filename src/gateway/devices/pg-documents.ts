// The pairing store's documents in PostgreSQL (cluster.store): one row per document in
// `<schema>.documents` (`devices/paired`, `devices/pending`), read on every operation like the files,
// so every gateway or CLI on the same database sees an approval at once.
import type { ClusterStoreConfig } from "../../protocol/config/index.js";
import type { PgSessionBackend } from "../../sessions/postgres/backend.js";
import type { DeviceDocuments } from "./types.js";

type DocumentName = "paired" | "pending";

async function readDocument(
  backend: PgSessionBackend,
  name: DocumentName,
): Promise<Record<string, unknown>> {
  const { sql, schema } = backend;
  const [row] = await sql<{ doc: string }[]>`select doc::text as doc
    from ${sql(schema)}.documents where name = ${`devices/${name}`}`;
  if (!row) return {};
  const value: unknown = JSON.parse(row.doc);
  if (value && typeof value === "object" && !Array.isArray(value))
    return value as Record<string, unknown>;
  throw new Error(`${backend.where} devices/${name} must hold a JSON object`);
}

async function writeDocument(params: {
  backend: PgSessionBackend;
  name: DocumentName;
  data: Record<string, unknown>;
}): Promise<void> {
  const { backend, name, data } = params;
  const { sql, schema } = backend;
  await sql`insert into ${sql(schema)}.documents (name, doc, updated_at)
    values (${`devices/${name}`}, ${JSON.stringify(data)}::text::json, ${Date.now()})
    on conflict (name) do update set doc = excluded.doc, updated_at = excluded.updated_at`;
}

/** Documents for a short-lived process (the CLI): each operation opens a pool and ends it. */
export function pgDeviceDocumentsFor(config: ClusterStoreConfig): DeviceDocuments {
  const withBackend = async <T>(run: (backend: PgSessionBackend) => Promise<T>): Promise<T> => {
    // Loaded on use: a process without cluster.store never loads the PostgreSQL client.
    const { openPgBackend } = await import("../../sessions/postgres/backend.js");
    const backend = await openPgBackend({ config });
    try {
      return await run(backend);
    } finally {
      await backend.close();
    }
  };
  return {
    where: `postgres (${config.schema ?? "pincer"})`,
    read: (name) => withBackend((backend) => readDocument(backend, name)),
    write: (name, data) => withBackend((backend) => writeDocument({ backend, name, data })),
  };
}

/** Documents over the backend `backend()` returns (resolved per call: the gateway opens it later). */
export function pgDeviceDocuments(backend: () => PgSessionBackend | undefined): DeviceDocuments {
  const use = (): PgSessionBackend => {
    const found = backend();
    if (!found) throw new Error("device store in PostgreSQL used before the database was opened");
    return found;
  };
  return {
    get where() {
      return backend()?.where ?? "postgres (not opened yet)";
    },
    read: (name) => readDocument(use(), name),
    write: (name, data) => writeDocument({ backend: use(), name, data }),
  };
}
