// Connecting to PostgreSQL for the session store (`cluster.store`) and creating its schema on first use.
// Errors name the server (host, port, database) and never the password.
import postgres from "postgres";
import type { ClusterStoreConfig } from "../../protocol/config/index.js";

/** The client type the store uses. */
export type Sql = postgres.Sql<Record<string, never>>;

/** Version of the tables below; a database with a newer one is refused. */
export const PG_SCHEMA_VERSION = 1;
/** Default schema of Pincer's tables. */
export const DEFAULT_PG_SCHEMA = "pincer";

/** `host:port/db` of a postgres URL, without credentials (for messages). */
export function describePgUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const db = parsed.pathname.replace(/^\//, "") || "postgres";
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}/${db}`;
  } catch {
    return "(unparsable URL)";
  }
}

/** Raised when PostgreSQL cannot be reached or its schema is unusable; names the host only. */
export class PgStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PgStoreError";
  }
}

/** A connection pool for a `cluster.store` config (not yet connected: the first query connects). */
export function createPgClient(config: ClusterStoreConfig): Sql {
  return postgres(config.url, {
    max: config.maxConnections ?? 10,
    connect_timeout: Math.max(1, Math.ceil((config.connectTimeoutMs ?? 10_000) / 1000)),
    idle_timeout: 30,
    onnotice: () => {},
    connection: { application_name: "pincer" },
  }) as Sql;
}

/** The message of a failed first query, the URL's host named and the password left out. */
export function pgConnectError(url: string, err: unknown): PgStoreError {
  const reason = err instanceof Error ? err.message : String(err);
  const safe = reason.split(url).join(describePgUrl(url));
  return new PgStoreError(`cannot use PostgreSQL at ${describePgUrl(url)}: ${safe}`, {
    cause: err,
  });
}

/** Creates the schema and tables when missing (serialized by an advisory lock), checks the version. */
export async function ensurePgSchema(params: { sql: Sql; schema: string; url: string }) {
  const { sql, schema, url } = params;
  try {
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext(${`pincer-schema:${schema}`}))`;
      await tx`create schema if not exists ${tx(schema)}`;
      await tx`create table if not exists ${tx(schema)}.schema_meta (
        name text primary key, version integer not null)`;
      await tx`create table if not exists ${tx(schema)}.sessions (
        agent_id text not null,
        session_key text not null,
        session_id text not null,
        updated_at bigint not null,
        entry json not null,
        primary key (agent_id, session_key))`;
      await tx`create index if not exists sessions_agent_updated
        on ${tx(schema)}.sessions (agent_id, updated_at desc, session_key)`;
      await tx`create table if not exists ${tx(schema)}.transcripts (
        session_id text primary key,
        agent_id text not null,
        session_key text not null,
        header json not null,
        created_at bigint not null,
        archived text,
        archived_at bigint,
        file_name text)`;
      await tx`create index if not exists transcripts_agent_key
        on ${tx(schema)}.transcripts (agent_id, session_key)`;
      await tx`create table if not exists ${tx(schema)}.transcript_entries (
        session_id text not null,
        entry_id text not null,
        parent_id text,
        seq integer not null,
        entry json not null,
        primary key (session_id, entry_id))`;
      await tx`create index if not exists transcript_entries_seq
        on ${tx(schema)}.transcript_entries (session_id, seq)`;
      await tx`create table if not exists ${tx(schema)}.documents (
        name text primary key, doc json not null, updated_at bigint not null)`;
      await tx`insert into ${tx(schema)}.schema_meta (name, version)
        values ('sessions', ${PG_SCHEMA_VERSION}) on conflict (name) do nothing`;
    });
  } catch (err) {
    throw pgConnectError(url, err);
  }
  const [row] = await sql<{ version: number }[]>`
    select version from ${sql(schema)}.schema_meta where name = 'sessions'`;
  if (row && Number(row.version) > PG_SCHEMA_VERSION) {
    throw new PgStoreError(
      `PostgreSQL schema ${schema} at ${describePgUrl(url)} is version ${row.version}; this Pincer knows ${PG_SCHEMA_VERSION}`,
    );
  }
}
