// One PostgreSQL session database (`cluster.store`): the pool, the schema, the write queue and the
// reads the stores need (every index row at open, one session and one transcript on reload, a page of a
// listing by the (agent_id, updated_at) index). Opened once per registry, closed with it.
import { type Logger, silentLogger } from "../../lib/logger.js";
import type { ClusterStoreConfig } from "../../protocol/config/index.js";
import type { SessionEntry } from "../types.js";
import {
  createPgClient,
  DEFAULT_PG_SCHEMA,
  describePgUrl,
  ensurePgSchema,
  pgConnectError,
  type Sql,
} from "./connect.js";
import { PgWriter } from "./writer.js";

/** A transcript as stored: the header text and the entries' texts in append order. */
export interface StoredTranscript {
  sessionId: string;
  sessionKey: string;
  header: string;
  entries: { id: string; parentId: string | null; json: string }[];
  archived: "reset" | "deleted" | null;
  archivedAt: number | null;
}

/** One row of a listing page. */
export interface PgListRow {
  key: string;
  updatedAt: number;
  entry: string;
}

/** Parses a stored entry's JSON (the text kept as written). */
export function parseEntry(text: string): SessionEntry {
  return JSON.parse(text) as SessionEntry;
}

/** The connection to one PostgreSQL store; create with {@link openPgBackend}. */
export class PgSessionBackend {
  readonly writer: PgWriter;
  readonly where: string;
  readonly sql: Sql;
  readonly schema: string;
  private readonly url: string;

  constructor(params: { sql: Sql; schema: string; url: string; logger: Logger }) {
    const { sql, schema, url, logger } = params;
    this.sql = sql;
    this.schema = schema;
    this.url = url;
    this.writer = new PgWriter({ sql, schema, url, logger });
    this.where = `postgres://${describePgUrl(url)}?schema=${schema}`;
  }

  /** Every index row, grouped by agent id (key → entry text). */
  async loadAll(): Promise<Map<string, [string, string][]>> {
    const rows = await this.query(
      () => this.sql<{ agent_id: string; session_key: string; entry: string }[]>`
        select agent_id, session_key, entry::text as entry from ${this.sql(this.schema)}.sessions`,
    );
    const byAgent = new Map<string, [string, string][]>();
    for (const row of rows) {
      const list = byAgent.get(row.agent_id) ?? [];
      if (list.length === 0) byAgent.set(row.agent_id, list);
      list.push([row.session_key, row.entry]);
    }
    return byAgent;
  }

  /** One agent's index rows (key → entry text). */
  async loadAgent(agentId: string): Promise<[string, string][]> {
    const rows = await this.query(
      () => this.sql<{ session_key: string; entry: string }[]>`
        select session_key, entry::text as entry from ${this.sql(this.schema)}.sessions
        where agent_id = ${agentId}`,
    );
    return rows.map((row) => [row.session_key, row.entry]);
  }

  /** The stored entry text of one key, or undefined. */
  async loadSession(agentId: string, key: string): Promise<string | undefined> {
    const [row] = await this.query(
      () => this.sql<{ entry: string }[]>`select entry::text as entry
        from ${this.sql(this.schema)}.sessions where agent_id = ${agentId} and session_key = ${key}`,
    );
    return row?.entry;
  }

  /** A transcript by session id (archived ones too), or undefined when it has no header row. */
  async loadTranscript(sessionId: string): Promise<StoredTranscript | undefined> {
    const t = this.sql(this.schema);
    const [head] = await this.query(
      () => this.sql<
        {
          session_key: string;
          header: string;
          archived: string | null;
          archived_at: string | null;
        }[]
      >`select session_key, header::text as header, archived, archived_at
        from ${t}.transcripts where session_id = ${sessionId}`,
    );
    if (!head) return undefined;
    const rows = await this.query(
      () => this.sql<{ entry_id: string; parent_id: string | null; entry: string }[]>`
        select entry_id, parent_id, entry::text as entry from ${t}.transcript_entries
        where session_id = ${sessionId} order by seq, entry_id`,
    );
    return {
      sessionId,
      sessionKey: head.session_key,
      header: head.header,
      entries: rows.map((row) => ({ id: row.entry_id, parentId: row.parent_id, json: row.entry })),
      archived: head.archived === "reset" || head.archived === "deleted" ? head.archived : null,
      archivedAt: head.archived_at === null ? null : Number(head.archived_at),
    };
  }

  /** Session ids of an agent's transcripts (live and archived). */
  async transcriptIds(agentId: string): Promise<string[]> {
    const rows = await this.query(
      () => this.sql<{ session_id: string }[]>`select session_id
        from ${this.sql(this.schema)}.transcripts where agent_id = ${agentId} order by created_at`,
    );
    return rows.map((row) => row.session_id);
  }

  /** Agents that have rows. */
  async agentIds(): Promise<string[]> {
    const t = this.sql(this.schema);
    const rows = await this.query(
      () => this.sql<{ agent_id: string }[]>`select agent_id from ${t}.sessions
        union select agent_id from ${t}.transcripts order by 1`,
    );
    return rows.map((row) => row.agent_id);
  }

  /** One page of an agent's sessions, newest first, after the `(updatedAt, key)` cursor. */
  async listPage(params: {
    agentId: string;
    limit: number;
    after?: { updatedAt: number; key: string };
  }): Promise<PgListRow[]> {
    const { agentId, limit, after } = params;
    const t = this.sql(this.schema);
    const rows = await this.query(() =>
      after
        ? this.sql<{ session_key: string; updated_at: string; entry: string }[]>`
          select session_key, updated_at, entry::text as entry from ${t}.sessions
          where agent_id = ${agentId} and (updated_at, session_key) < (${after.updatedAt}, ${after.key})
          order by updated_at desc, session_key desc limit ${limit}`
        : this.sql<{ session_key: string; updated_at: string; entry: string }[]>`
          select session_key, updated_at, entry::text as entry from ${t}.sessions
          where agent_id = ${agentId} order by updated_at desc, session_key desc limit ${limit}`,
    );
    return rows.map((row) => ({
      key: row.session_key,
      updatedAt: Number(row.updated_at),
      entry: row.entry,
    }));
  }

  /** Waits for the queued writes, then closes the pool. */
  async close(): Promise<void> {
    try {
      await this.writer.flush();
    } finally {
      await this.sql.end({ timeout: 5 });
    }
  }

  private async query<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw pgConnectError(this.url, err);
    }
  }
}

/** Connects, creates the schema when missing and returns the backend (a clear error when unreachable). */
export async function openPgBackend(params: {
  config: ClusterStoreConfig;
  logger?: Logger;
}): Promise<PgSessionBackend> {
  const { config } = params;
  const schema = config.schema ?? DEFAULT_PG_SCHEMA;
  const sql = createPgClient(config);
  try {
    await ensurePgSchema({ sql, schema, url: config.url });
  } catch (err) {
    // The pool never connected: closing it cannot fail in a way worth more than the error thrown.
    await sql.end({ timeout: 1 }).catch(() => undefined);
    throw err;
  }
  return new PgSessionBackend({
    sql,
    schema,
    url: config.url,
    logger: params.logger ?? silentLogger,
  });
}
