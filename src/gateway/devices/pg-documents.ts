// The pairing store's documents in PostgreSQL (cluster.store): one row per document in
// `<schema>.documents` (`devices/paired`, `devices/pending`), read on every operation like the files,
// so every gateway or CLI on the same database sees an approval at once.
import type { PgSessionBackend } from "../../sessions/index.js";
import type { DeviceDocuments } from "./types.js";

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
    async read(name) {
      const { sql, schema } = use();
      const [row] = await sql<{ doc: string }[]>`select doc::text as doc
        from ${sql(schema)}.documents where name = ${`devices/${name}`}`;
      if (!row) return {};
      const value: unknown = JSON.parse(row.doc);
      if (value && typeof value === "object" && !Array.isArray(value))
        return value as Record<string, unknown>;
      throw new Error(`${use().where} devices/${name} must hold a JSON object`);
    },
    async write(name, data) {
      const { sql, schema } = use();
      await sql`insert into ${sql(schema)}.documents (name, doc, updated_at)
        values (${`devices/${name}`}, ${JSON.stringify(data)}::text::json, ${Date.now()})
        on conflict (name) do update set doc = excluded.doc, updated_at = excluded.updated_at`;
    },
  };
}
