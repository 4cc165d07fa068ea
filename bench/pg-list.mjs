// Sessions in PostgreSQL at 100,000 sessions of one agent: one page of 50 (newest first, by the
// (agent_id, updated_at) index; first page and a deep keyset page) as p50/p99, loading the whole index
// at start-up (registry.ready), and a durable turn (update + flush: one upsert round trip). Runs on its
// own database of PINCER_TEST_PG_URL (dropped after); skipped with a notice when PostgreSQL is missing.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { resolveStatePaths } from "../dist/config/paths.js";
import { SessionStoreRegistry } from "../dist/sessions/index.js";
import { fmt } from "./measure.mjs";

const SESSIONS = 100_000;
const RUNS = 300;
const T0 = 1_767_000_000_000;
const ADMIN_URL =
  process.env.PINCER_TEST_PG_URL ?? "postgres://pincer:pincer@127.0.0.1:5432/postgres";

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function timed(fn, runs = RUNS) {
  for (let i = 0; i < 10; i++) await fn(i); // warm-up
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
}

const show = ({ p50, p99 }) => `p50 ${p50.toFixed(2)} ms · p99 ${p99.toFixed(2)} ms`;

async function seed(url) {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into pincer.sessions (agent_id, session_key, session_id, updated_at, entry)
      select 'main', 'agent:main:telegram:direct:u' || lpad(i::text, 6, '0'), 's-' || i,
        ${T0}::bigint + ((i::bigint * 104729) % ${SESSIONS}) * 1000,
        json_build_object('sessionId', 's-' || i,
          'updatedAt', ${T0}::bigint + ((i::bigint * 104729) % ${SESSIONS}) * 1000,
          'chatType', 'direct', 'lastChannel', 'telegram', 'totalTokens', (i * 31) % 5000,
          'model', 'fake/m1')
      from generate_series(1, ${SESSIONS}) as i`;
    await sql`analyze pincer.sessions`;
  } finally {
    await sql.end();
  }
}

/** Bench rows (or one "skipped" row when PostgreSQL is not reachable). */
export async function pgListRows() {
  const n = fmt(SESSIONS);
  const name = `sessions in PostgreSQL: one page of 50, ${n} sessions`;
  const admin = postgres(ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} });
  const dbName = `pincer_bench_${randomBytes(4).toString("hex")}`;
  try {
    await admin`create database ${admin(dbName)}`;
  } catch (err) {
    await admin.end();
    const host = new URL(ADMIN_URL).host;
    console.warn(`bench: PostgreSQL not reachable at ${host} (${err.message}); pg rows skipped`);
    return [{ name, result: `skipped: no PostgreSQL at ${host}` }];
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const home = mkdtempSync(join(tmpdir(), "pincer-bench-pg-"));
  const paths = resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: home } });
  const cfg = { cluster: { store: { kind: "postgres", url: url.toString() } } };
  try {
    const empty = new SessionStoreRegistry({ cfg, paths });
    await empty.ready(); // creates the schema
    await empty.closeAll();
    await seed(url.toString());
    const registry = new SessionStoreRegistry({ cfg, paths });
    const loadStart = performance.now();
    await registry.ready();
    const store = registry.forAgent("main");
    const loadMs = performance.now() - loadStart;
    const backend = registry.postgres;
    const first = await timed(() => backend.listPage({ agentId: "main", limit: 50 }));
    const cursors = (await backend.listPage({ agentId: "main", limit: SESSIONS })).filter(
      (_, i) => i % 331 === 0,
    );
    const deep = await timed((i) =>
      backend.listPage({ agentId: "main", limit: 50, after: cursors[i % cursors.length] }),
    );
    const memory = await timed(() => store.list({ limit: 50 }));
    const keys = store.list({ limit: RUNS + 20 }).map((row) => row.key);
    const turn = await timed(async (i) => {
      store.update(keys[i], { lastInteractionAt: T0 + i });
      await store.flush();
    });
    await registry.closeAll();
    return [
      { name, result: show(first), target: "p99 < 50 ms" },
      {
        name: `sessions in PostgreSQL: a deep page of 50 (keyset), ${n} sessions`,
        result: show(deep),
      },
      {
        name: `sessions in PostgreSQL: store.list --limit 50 (in-memory index), ${n} sessions`,
        result: show(memory),
      },
      {
        name: `sessions in PostgreSQL: index load at start-up, ${n} sessions`,
        result: `${loadMs.toFixed(0)} ms`,
      },
      {
        name: "sessions in PostgreSQL: durable turn (update + flush, one upsert)",
        result: show(turn),
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
    await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await pgListRows()) console.log(`${row.name}: ${row.result}`);
}
