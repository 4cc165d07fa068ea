// Session dumps from and to PostgreSQL: one agent's rows read whole, and written in one transaction
// (session rows upserted, transcript headers and entries inserted; `force` replaces what was there).
import type { PgSessionBackend } from "./backend.js";
import { type AgentDump, type TranscriptDump, TransferConflictError } from "./dump.js";
import { updatedAtOf } from "./writer.js";

/** Reads one agent's sessions and transcripts (archived ones too). */
export async function readPgDump(backend: PgSessionBackend, agentId: string): Promise<AgentDump> {
  const { sql, schema } = backend;
  const t = sql(schema);
  const sessions = await sql<{ session_key: string; entry: string }[]>`
    select session_key, entry::text as entry from ${t}.sessions
    where agent_id = ${agentId} order by updated_at desc, session_key`;
  const heads = await sql<
    {
      session_id: string;
      session_key: string;
      header: string;
      created_at: string;
      archived: string | null;
      archived_at: string | null;
      file_name: string | null;
    }[]
  >`select session_id, session_key, header::text as header, created_at, archived, archived_at,
      file_name from ${t}.transcripts where agent_id = ${agentId} order by created_at, session_id`;
  const rows = await sql<
    { session_id: string; entry_id: string; parent_id: string | null; entry: string }[]
  >`
    select e.session_id, e.entry_id, e.parent_id, e.entry::text as entry
    from ${t}.transcript_entries e join ${t}.transcripts h on h.session_id = e.session_id
    where h.agent_id = ${agentId} order by e.session_id, e.seq, e.entry_id`;
  const bySession = new Map<string, TranscriptDump["entries"]>();
  for (const row of rows) {
    const list = bySession.get(row.session_id) ?? [];
    if (list.length === 0) bySession.set(row.session_id, list);
    list.push({ id: row.entry_id, parentId: row.parent_id, json: row.entry });
  }
  return {
    agentId,
    entries: sessions.map((row) => [row.session_key, row.entry]),
    transcripts: heads.map((h) => ({
      sessionId: h.session_id,
      sessionKey: h.session_key,
      header: h.header,
      entries: bySession.get(h.session_id) ?? [],
      archived:
        h.archived === "reset" || h.archived === "deleted"
          ? { reason: h.archived, at: Number(h.archived_at ?? 0) }
          : null,
      createdAt: Number(h.created_at),
      fileName: h.file_name,
    })),
  };
}

/** Keys and transcripts of a dump already in PostgreSQL. */
export async function pgConflicts(backend: PgSessionBackend, dump: AgentDump): Promise<string[]> {
  const { sql, schema } = backend;
  const t = sql(schema);
  const keys = dump.entries.map(([key]) => key);
  const ids = dump.transcripts.map((x) => x.sessionId);
  const taken = await sql<{ session_key: string }[]>`select session_key from ${t}.sessions
    where agent_id = ${dump.agentId} and session_key = any(${keys}::text[])`;
  const heads = await sql<{ session_id: string }[]>`select session_id from ${t}.transcripts
    where session_id = any(${ids}::text[])`;
  return [...taken.map((r) => r.session_key), ...heads.map((r) => `transcript ${r.session_id}`)];
}

/** Writes a dump in one transaction; refuses (TransferConflictError) to overwrite unless `force`. */
export async function writePgDump(params: {
  backend: PgSessionBackend;
  dump: AgentDump;
  force: boolean;
}): Promise<void> {
  const { backend, dump, force } = params;
  const conflicts = await pgConflicts(backend, dump);
  if (conflicts.length > 0 && !force) throw new TransferConflictError(backend.where, conflicts);
  const { sql, schema } = backend;
  const t = sql(schema);
  const ids = dump.transcripts.map((x) => x.sessionId);
  await sql.begin(async (tx) => {
    if (force) {
      await tx`delete from ${t}.transcript_entries where session_id = any(${ids}::text[])`;
      await tx`delete from ${t}.transcripts where session_id = any(${ids}::text[])`;
    }
    for (let i = 0; i < dump.entries.length; i += 1000) {
      const chunk = dump.entries.slice(i, i + 1000);
      const entries = chunk.map(([key, json]) => {
        const parsed = JSON.parse(json) as { sessionId?: unknown; updatedAt?: unknown };
        return { key, json, parsed };
      });
      await tx`insert into ${t}.sessions (agent_id, session_key, session_id, updated_at, entry)
        select ${dump.agentId}, k, s, u, e::json from unnest(
          ${entries.map((e) => e.key)}::text[],
          ${entries.map((e) => (typeof e.parsed.sessionId === "string" ? e.parsed.sessionId : ""))}::text[],
          ${entries.map((e) => updatedAtOf(e.parsed as never))}::bigint[],
          ${entries.map((e) => e.json)}::text[]) as x(k, s, u, e)
        on conflict (agent_id, session_key) do update set session_id = excluded.session_id,
          updated_at = excluded.updated_at, entry = excluded.entry`;
    }
    for (const x of dump.transcripts) {
      await tx`insert into ${t}.transcripts
        (session_id, agent_id, session_key, header, created_at, archived, archived_at, file_name)
        values (${x.sessionId}, ${dump.agentId}, ${x.sessionKey}, ${x.header}::text::json,
          ${x.createdAt}, ${x.archived?.reason ?? null}, ${x.archived?.at ?? null}, ${x.fileName})
        on conflict (session_id) do nothing`;
      for (let i = 0; i < x.entries.length; i += 1000) {
        const chunk = x.entries.slice(i, i + 1000);
        await tx`insert into ${t}.transcript_entries (session_id, entry_id, parent_id, seq, entry)
          select ${x.sessionId}, id, p, (${i}::int + n - 1)::int, e::json from unnest(
            ${chunk.map((e) => e.id)}::text[], ${chunk.map((e) => e.parentId)}::text[],
            ${chunk.map((e) => e.json)}::text[]) with ordinality as y(id, p, e, n)
          on conflict (session_id, entry_id) do nothing`;
      }
    }
  });
}
