// The session store on a real PostgreSQL: the index written through as single-row upserts and
// loaded back, transcripts one row per entry (tree links kept, appends idempotent on entry id),
// reset/delete archiving rows, two registries (two processes) seeing each other's writes via reload,
// and a clear error naming the host when the server is unreachable.
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { resolveStatePaths } from "../src/config/paths.js";
import {
  currentBranch,
  forkSessionTranscript,
  SessionStoreRegistry,
  TranscriptNotLoadedError,
} from "../src/sessions/index.js";
import { createTestDatabase } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const db = await createTestDatabase("sessions_pg");

function registry(schema = "pincer") {
  const home = makeTempDir("pincer-pg-");
  const paths = resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: join(home, "state") } });
  const cfg = {
    agents: { list: [{ id: "main" }, { id: "work" }] },
    cluster: { store: { kind: "postgres" as const, url: db!.url, schema } },
  };
  let now = 1_000_000;
  return new SessionStoreRegistry({ cfg, paths, clock: { now: () => (now += 1000) } });
}

const sql = db ? postgres(db.url, { max: 2, onnotice: () => {} }) : undefined;
afterAll(async () => {
  await sql?.end({ timeout: 5 });
});

describe.skipIf(!db)("sessions in PostgreSQL", () => {
  it("writes the index through and loads it back in a new registry", async () => {
    const a = registry();
    await a.ready();
    const store = a.forAgent("main");
    const { entry, created } = store.getOrCreate("agent:main:main", { chatType: "direct" });
    expect(created).toBe(true);
    store.update("agent:main:main", { label: "hello", futureField: { kept: [1, 2] } });
    store.getOrCreate("agent:main:other");
    a.forAgent("work").getOrCreate("agent:work:main");
    await store.flush();
    const rows =
      await sql!`select agent_id, session_key, updated_at from pincer.sessions order by 1, 2`;
    expect(rows.map((r) => `${r.agent_id}/${r.session_key}`)).toEqual([
      "main/agent:main:main",
      "main/agent:main:other",
      "work/agent:work:main",
    ]);
    await a.closeAll();

    const b = registry();
    await b.ready();
    const again = b.forAgent("main");
    expect(again.size).toBe(2);
    expect(again.get("agent:main:main")).toMatchObject({
      sessionId: entry.sessionId,
      label: "hello",
      futureField: { kept: [1, 2] },
    });
    expect(again.list().map((row) => row.key)).toEqual(["agent:main:other", "agent:main:main"]);
    expect(b.forAgent("work").size).toBe(1);
    await b.closeAll();
  });

  it("stores transcripts one row per entry, tree links kept, appends idempotent", async () => {
    const a = registry("tx");
    await a.ready();
    const store = a.forAgent("main");
    store.getOrCreate("agent:main:t");
    const transcript = await store.openTranscriptAsync("agent:main:t", { cwd: "/w" });
    const first = transcript.appendMessage({ role: "user", content: "hi" });
    const second = transcript.appendMessage({ role: "assistant", content: "hello" });
    transcript.setLeaf(first.id);
    const branched = transcript.appendMessage({ role: "assistant", content: "other" });
    await store.flush();
    const rows =
      await sql!`select entry_id, parent_id, seq from tx.transcript_entries order by seq`;
    expect(rows.map((r) => [r.entry_id, r.parent_id, r.seq])).toEqual([
      [first.id, null, 0],
      [second.id, first.id, 1],
      [branched.id, first.id, 2],
    ]);
    // A replayed append (a redelivered turn) is not applied twice.
    const sessionId = store.get("agent:main:t")!.sessionId;
    await sql!`insert into tx.transcript_entries (session_id, entry_id, parent_id, seq, entry)
      values (${sessionId}, ${first.id}, null, 9, '{}'::json) on conflict do nothing`;
    const [{ n }] = await sql!`select count(*)::int as n from tx.transcript_entries`;
    expect(n).toBe(3);
    await a.closeAll();

    const b = registry("tx");
    await b.ready();
    const other = b.forAgent("main");
    expect(() => other.readTranscript("agent:main:t")).toThrow(TranscriptNotLoadedError);
    const read = await other.readTranscriptAsync("agent:main:t");
    expect(read?.entries.map((e) => e.id)).toEqual([first.id, second.id, branched.id]);
    expect(read?.header?.cwd).toBe("/w");
    const reopened = await other.openTranscriptAsync("agent:main:t", { cwd: "/w" });
    expect(reopened.leafId).toBe(branched.id);
    expect(reopened.branch().map((e) => e.id)).toEqual([first.id, branched.id]);
    await b.closeAll();
  });

  it("archives the transcript on reset and delete, keeping its rows", async () => {
    const a = registry("arch");
    await a.ready();
    const store = a.forAgent("main");
    const { entry } = store.getOrCreate("agent:main:r");
    (await store.openTranscriptAsync("agent:main:r", { cwd: "/" })).appendMessage({
      role: "user",
      content: "one",
    });
    const reset = store.reset("agent:main:r");
    expect(reset.entry.sessionId).not.toBe(entry.sessionId);
    expect(reset.archivedTranscript).toContain(entry.sessionId);
    store
      .openTranscript("agent:main:r", { cwd: "/" })
      .appendMessage({ role: "user", content: "2" });
    const removed = store.delete("agent:main:r");
    expect(removed?.previous.sessionId).toBe(reset.entry.sessionId);
    await store.flush();
    const heads = await sql!`select session_id, archived from arch.transcripts order by created_at`;
    expect(heads.map((h) => h.archived)).toEqual(["reset", "deleted"]);
    const [{ n }] = await sql!`select count(*)::int as n from arch.transcript_entries`;
    expect(n).toBe(2);
    const [{ s }] = await sql!`select count(*)::int as s from arch.sessions`;
    expect(s).toBe(0);
    await a.closeAll();
  });

  it("sees another process's writes after reload(key)", async () => {
    const gateway = registry("two");
    const worker = registry("two");
    await gateway.ready();
    await worker.ready();
    const g = gateway.forAgent("main");
    const w = worker.forAgent("main");
    g.getOrCreate("agent:main:shared");
    await g.flush();
    expect(w.has("agent:main:shared")).toBe(false);
    await w.reload("agent:main:shared");
    expect(w.get("agent:main:shared")?.sessionId).toBe(g.get("agent:main:shared")?.sessionId);
    const tw = await w.openTranscriptAsync("agent:main:shared", { cwd: "/" });
    const turn = tw.appendMessage({ role: "user", content: "from the worker" });
    w.update("agent:main:shared", { totalTokens: 42 });
    await w.flush();
    await g.reload("agent:main:shared");
    expect(g.get("agent:main:shared")?.totalTokens).toBe(42);
    expect(g.readTranscript("agent:main:shared")?.entries.map((e) => e.id)).toEqual([turn.id]);
    w.delete("agent:main:shared");
    await w.flush();
    await g.reload("agent:main:shared");
    expect(g.has("agent:main:shared")).toBe(false);
    await gateway.closeAll();
    await worker.closeAll();
  });

  it("forks a thread's session from its parent's current branch", async () => {
    const a = registry("fork");
    await a.ready();
    const store = a.forAgent("main");
    store.getOrCreate("agent:main:parent");
    const t = await store.openTranscriptAsync("agent:main:parent", { cwd: "/p" });
    const one = t.appendMessage({ role: "user", content: "one" });
    t.appendMessage({ role: "assistant", content: "dropped branch" });
    t.setLeaf(one.id);
    const two = t.appendMessage({ role: "assistant", content: "kept" });
    store.getOrCreate("agent:main:child");
    const outcome = await forkSessionTranscript({
      store,
      parentKey: "agent:main:parent",
      childKey: "agent:main:child",
    });
    expect(outcome).toMatchObject({ status: "forked", entries: 2 });
    const again = await forkSessionTranscript({
      store,
      parentKey: "agent:main:parent",
      childKey: "agent:main:child",
    });
    expect(again).toEqual({ status: "skipped", reason: "child-has-transcript" });
    await a.closeAll();
    const b = registry("fork");
    await b.ready();
    const read = await b.forAgent("main").readTranscriptAsync("agent:main:child");
    expect(currentBranch(read!.entries).map((e) => e.id)).toEqual([one.id, two.id]);
    expect(read?.header?.cwd).toBe("/p");
    await b.closeAll();
  });

  it("fails with an error naming the host, never the password", async () => {
    const home = makeTempDir("pincer-pg-");
    const paths = resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: home } });
    const url = "postgres://pincer:s3cret-pw@127.0.0.1:1/nowhere";
    const cfg = { cluster: { store: { kind: "postgres" as const, url, connectTimeoutMs: 500 } } };
    const reg = new SessionStoreRegistry({ cfg, paths });
    const error = await reg.ready().then(
      () => undefined,
      (err: unknown) => err as Error,
    );
    expect(error?.message).toContain("127.0.0.1:1/nowhere");
    expect(error?.message).not.toContain("s3cret-pw");
    expect(() => reg.forAgent("main")).toThrow(/ready\(\)/);
  });
});
