// Write-through to PostgreSQL: changes queue in memory and drain in the background, one transaction
// per batch (every statement pipelined): transcript headers and entries inserted (`ON CONFLICT DO
// NOTHING`: an append replayed after a redelivery is not applied twice), session rows upserted one row
// per key (the latest entry of a key wins within a batch), archives marked. `flush()` resolves once
// PostgreSQL has every change queued before the call; a failed batch is kept and retried.
import type { Logger } from "../../lib/logger.js";
import type { SessionEntry } from "../types.js";
import { pgConnectError, type Sql } from "./connect.js";

/** One transcript entry row. */
export interface EntryRow {
  sessionId: string;
  entryId: string;
  parentId: string | null;
  seq: number;
  /** The entry's JSON text, stored as written. */
  json: string;
}

/** One transcript's header row. */
export interface HeaderRow {
  sessionId: string;
  agentId: string;
  sessionKey: string;
  json: string;
  createdAt: number;
}

interface SessionWrite {
  agentId: string;
  key: string;
  entry: SessionEntry | null;
}

interface ArchiveMark {
  sessionId: string;
  reason: "reset" | "deleted";
  at: number;
}

interface Batch {
  sessions: Map<string, SessionWrite>;
  headers: HeaderRow[];
  entries: EntryRow[];
  archives: ArchiveMark[];
  sweeps: { agentId: string; before: number }[];
}

interface Waiter {
  target: number;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** The indexed `updated_at` of an entry (0 for a missing or bad value: the JSON keeps it as it is). */
export function updatedAtOf(entry: SessionEntry): number {
  const value = entry.updatedAt;
  return typeof value === "number" && Number.isFinite(value) ? Math.trunc(value) : 0;
}

function emptyBatch(): Batch {
  return { sessions: new Map(), headers: [], entries: [], archives: [], sweeps: [] };
}

/** Inputs of {@link PgWriter}. */
export interface PgWriterParams {
  sql: Sql;
  schema: string;
  url: string;
  logger: Logger;
  /** Delay before a failed batch is retried (default 1000 ms). */
  retryMs?: number;
}

/** The write queue of one PostgreSQL store (shared by every agent's store of a registry). */
export class PgWriter {
  private pending = emptyBatch();
  private queued = 0;
  private committed = 0;
  private draining: Promise<void> | undefined;
  private scheduled = false;
  private retry: NodeJS.Timeout | undefined;
  private waiters: Waiter[] = [];
  /** Batches written and statements sent (stats). */
  batches = 0;
  statements = 0;

  constructor(private readonly params: PgWriterParams) {}

  /** Upserts (or, with null, deletes) the row of one session key. */
  putSession(write: { agentId: string; key: string; entry: SessionEntry | null }): void {
    const { agentId, key, entry } = write;
    this.pending.sessions.set(`${agentId}\u0000${key}`, { agentId, key, entry });
    this.queue();
  }

  /** Inserts a transcript header (once per session id). */
  putHeader(row: HeaderRow): void {
    this.pending.headers.push(row);
    this.queue();
  }

  /** Inserts one transcript entry (idempotent on its id). */
  putEntry(row: EntryRow): void {
    this.pending.entries.push(row);
    this.queue();
  }

  /** Marks a transcript archived (reset or deleted); its rows are kept. */
  archive(mark: { sessionId: string; reason: "reset" | "deleted"; at: number }): void {
    this.pending.archives.push(mark);
    this.queue();
  }

  /** Removes an agent's transcripts archived before `before` (ms). */
  sweepArchives(agentId: string, before: number): void {
    this.pending.sweeps.push({ agentId, before });
    this.queue();
  }

  /** Changes queued and not yet in PostgreSQL. */
  get backlog(): number {
    return this.queued - this.committed;
  }

  /** Resolves once PostgreSQL has every change queued so far (rejects when that batch failed). */
  flush(): Promise<void> {
    const target = this.queued;
    if (this.committed >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ target, resolve, reject });
      this.kick();
    });
  }

  private queue(): void {
    this.queued += 1;
    if (this.scheduled || this.draining || this.retry) return;
    this.scheduled = true;
    setImmediate(() => this.kick());
  }

  private kick(): void {
    this.scheduled = false;
    if (this.draining) return;
    if (this.retry) {
      clearTimeout(this.retry);
      this.retry = undefined;
    }
    if (this.committed >= this.queued) return;
    const batch = this.pending;
    const target = this.queued;
    this.pending = emptyBatch();
    this.draining = this.write(batch).then(
      () => {
        this.committed = target;
        this.settle(target, undefined);
      },
      (err: unknown) => {
        const error = pgConnectError(this.params.url, err);
        this.params.logger.error(
          { error: error.message },
          "writing sessions to PostgreSQL failed; retrying",
        );
        this.requeue(batch);
        this.settle(target, error);
        this.retry = setTimeout(() => {
          this.retry = undefined;
          this.kick();
        }, this.params.retryMs ?? 1000);
        this.retry.unref();
      },
    );
    void this.draining.finally(() => {
      this.draining = undefined;
      if (this.committed < this.queued && !this.retry) this.kick();
    });
  }

  private settle(target: number, error: unknown): void {
    const due = this.waiters.filter((waiter) => waiter.target <= target);
    this.waiters = this.waiters.filter((waiter) => waiter.target > target);
    for (const waiter of due) {
      if (error === undefined) waiter.resolve();
      else waiter.reject(error);
    }
  }

  /** A failed batch goes back in front of what was queued since (newer session rows win). */
  private requeue(batch: Batch): void {
    const next = this.pending;
    for (const [id, write] of next.sessions) batch.sessions.set(id, write);
    batch.headers.push(...next.headers);
    batch.entries.push(...next.entries);
    batch.archives.push(...next.archives);
    batch.sweeps.push(...next.sweeps);
    this.pending = batch;
  }

  private async write(batch: Batch): Promise<void> {
    const { sql, schema } = this.params;
    const t = sql(schema);
    this.batches += 1;
    await sql.begin((tx) => {
      const statements: Promise<unknown>[] = [];
      for (const h of batch.headers) {
        statements.push(tx`insert into ${t}.transcripts
          (session_id, agent_id, session_key, header, created_at)
          values (${h.sessionId}, ${h.agentId}, ${h.sessionKey}, ${h.json}::text::json, ${h.createdAt})
          on conflict (session_id) do nothing`);
      }
      for (const e of batch.entries) {
        statements.push(tx`insert into ${t}.transcript_entries
          (session_id, entry_id, parent_id, seq, entry)
          values (${e.sessionId}, ${e.entryId}, ${e.parentId}, ${e.seq}, ${e.json}::text::json)
          on conflict (session_id, entry_id) do nothing`);
      }
      for (const s of batch.sessions.values()) {
        if (s.entry === null) {
          statements.push(tx`delete from ${t}.sessions
            where agent_id = ${s.agentId} and session_key = ${s.key}`);
          continue;
        }
        const json = JSON.stringify(s.entry);
        statements.push(tx`insert into ${t}.sessions
          (agent_id, session_key, session_id, updated_at, entry)
          values (${s.agentId}, ${s.key}, ${s.entry.sessionId}, ${updatedAtOf(s.entry)}, ${json}::text::json)
          on conflict (agent_id, session_key) do update set session_id = excluded.session_id,
            updated_at = excluded.updated_at, entry = excluded.entry`);
      }
      for (const a of batch.archives) {
        statements.push(tx`update ${t}.transcripts set archived = ${a.reason}, archived_at = ${a.at}
          where session_id = ${a.sessionId} and archived is null`);
      }
      for (const sweep of batch.sweeps) {
        statements.push(tx`delete from ${t}.transcript_entries where session_id in
          (select session_id from ${t}.transcripts where agent_id = ${sweep.agentId}
            and archived is not null and archived_at < ${sweep.before})`);
        statements.push(tx`delete from ${t}.transcripts where agent_id = ${sweep.agentId}
            and archived is not null and archived_at < ${sweep.before}`);
      }
      this.statements += statements.length;
      return statements;
    });
  }
}
