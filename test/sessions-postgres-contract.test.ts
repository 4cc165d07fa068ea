// The SessionStoreApi contract, run against both backends: the file store and the PostgreSQL store
// (a real server). Creation, update/annotate, listing order and filters, reset and delete (with their
// lifecycle events), pruning, and everything surviving a reopen (entries, transcripts and their tree).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveStatePaths } from "../src/config/paths.js";
import {
  acquireStateDirLock,
  type SessionLifecycleEvent,
  SessionNotFoundError,
  type SessionStoreApi,
  SessionStoreRegistry,
} from "../src/sessions/index.js";
import { createTestDatabase } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const db = await createTestDatabase("sessions_pg_contract");
let schemas = 0;

interface Harness {
  open(): Promise<SessionStoreApi>;
  /** Closes the open store and opens the same store again (another process's start). */
  reopen(): Promise<SessionStoreApi>;
  advance(ms: number): void;
  /** Closes the open store (and releases the files' lock). */
  close(): Promise<void>;
  now(): number;
  events: SessionLifecycleEvent[];
}

function harness(kind: "files" | "postgres", maxEntries?: number): Harness {
  const home = makeTempDir("pincer-contract-");
  const paths = resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: join(home, "state") } });
  const schema = `contract_${++schemas}`;
  let now = Date.parse("2026-03-01T10:00:00.000Z");
  let n = 0;
  const events: SessionLifecycleEvent[] = [];
  const session = maxEntries ? { maintenance: { maxEntries, mode: "enforce" as const } } : {};
  const cfg =
    kind === "postgres"
      ? { session, cluster: { store: { kind: "postgres" as const, url: db!.url, schema } } }
      : { session };
  let registry: SessionStoreRegistry | undefined;
  let release: (() => void) | undefined;
  const open = async () => {
    const lock = kind === "files" ? acquireStateDirLock({ stateDir: paths.stateDir }) : undefined;
    release = lock ? () => lock.release() : undefined;
    registry = new SessionStoreRegistry({
      cfg,
      paths,
      ...(lock ? { lock } : {}),
      clock: { now: () => now },
      ids: {
        sessionId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
        entryId: () => (++n).toString(16).padStart(8, "0"),
      },
      onLifecycle: (event) => events.push(event),
    });
    await registry.ready();
    return registry.forAgent("main");
  };
  return {
    open,
    reopen: async () => {
      await registry?.closeAll();
      release?.();
      return open();
    },
    advance: (ms) => {
      now += ms;
    },
    close: async () => {
      await registry?.closeAll();
      release?.();
    },
    now: () => now,
    events,
  };
}

const backends = db ? (["files", "postgres"] as const) : (["files"] as const);

describe.each(backends)("SessionStoreApi on %s", (kind) => {
  it("creates, updates and annotates sessions; unknown keys and lost ids throw", async () => {
    const h = harness(kind);
    const store = await h.open();
    const { entry, created } = store.getOrCreate("agent:main:main", { chatType: "direct" });
    expect(created).toBe(true);
    expect(entry).toMatchObject({ updatedAt: h.now(), inputTokens: 0, chatType: "direct" });
    expect(store.getOrCreate("agent:main:main").created).toBe(false);
    h.advance(1000);
    expect(store.update("agent:main:main", { label: "x", extra: { a: 1 } }).updatedAt).toBe(
      h.now(),
    );
    h.advance(1000);
    const annotated = store.annotate("agent:main:main", { label: undefined, pinnedAt: 5 });
    expect(annotated.updatedAt).toBe(h.now() - 1000);
    expect("label" in annotated).toBe(false);
    expect(() => store.update("agent:main:nope", {})).toThrow(SessionNotFoundError);
    expect(() => store.update("agent:main:main", { sessionId: undefined as never })).toThrow(
      /sessionId/,
    );
    const again = await h.reopen();
    expect(again.get("agent:main:main")).toEqual(annotated);
    await h.close();
  });

  it("lists newest first with limit, activeMinutes and agentId", async () => {
    const h = harness(kind);
    const store = await h.open();
    for (const key of ["agent:main:a", "agent:work:b", "global", "agent:main:c"]) {
      store.getOrCreate(key);
      h.advance(60_000);
    }
    store.update("agent:main:a", {});
    const keys = (opts = {}) => store.list(opts).map((row) => row.key);
    expect(keys()).toEqual(["agent:main:a", "agent:main:c", "global", "agent:work:b"]);
    expect(keys({ limit: 2 })).toEqual(["agent:main:a", "agent:main:c"]);
    expect(keys({ activeMinutes: 2 })).toEqual(["agent:main:a", "agent:main:c", "global"]);
    expect(keys({ agentId: "main" })).toEqual(["agent:main:a", "agent:main:c", "global"]);
    expect(store.count("main")).toBe(3);
    const again = await h.reopen();
    expect(again.list().map((row) => row.key)).toEqual(keys());
    await h.close();
  });

  it("resets and deletes with lifecycle events and archived transcripts", async () => {
    const h = harness(kind);
    const store = await h.open();
    const { entry } = store.getOrCreate("agent:main:main", { label: "keep" });
    store.update("agent:main:main", { totalTokens: 99 });
    (await store.openTranscriptAsync("agent:main:main", { cwd: "/w" })).appendMessage({
      role: "user",
      content: "hi",
    });
    const reset = store.reset("agent:main:main");
    expect(reset.previous.sessionId).toBe(entry.sessionId);
    expect(reset.entry).toMatchObject({ label: "keep", totalTokens: 0 });
    expect(reset.archivedTranscript).toBeDefined();
    expect(store.readTranscript("agent:main:main")?.entries ?? []).toEqual([]);
    expect(store.delete("agent:main:nope")).toBeUndefined();
    store.getOrCreate("agent:main:other");
    expect(store.delete("agent:main:other")?.key).toBe("agent:main:other");
    expect(h.events.map((e) => e.type)).toEqual(["start", "end", "start", "start", "end"]);
    const again = await h.reopen();
    expect(again.get("agent:main:main")?.sessionId).toBe(reset.entry.sessionId);
    expect(again.has("agent:main:other")).toBe(false);
    await h.close();
  });

  it("keeps transcripts, branches and the leaf across a reopen", async () => {
    const h = harness(kind);
    const store = await h.open();
    store.getOrCreate("agent:main:t");
    const t = await store.openTranscriptAsync("agent:main:t", { cwd: "/w" });
    const a = t.appendMessage({ role: "user", content: "a" });
    t.appendMessage({ role: "assistant", content: "b" });
    t.setLeaf(a.id);
    const c = t.append({ type: "custom", customType: "x", data: { deep: [1, "two"] } });
    await store.flush();
    const again = await h.reopen();
    const read = await again.readTranscriptAsync("agent:main:t");
    expect(read?.entries).toEqual(t.entries);
    const reopened = await again.openTranscriptAsync("agent:main:t", { cwd: "/w" });
    expect(reopened.leafId).toBe(c.id);
    expect(reopened.branch().map((e) => e.id)).toEqual([a.id, c.id]);
    await h.close();
  });

  it("makes an append with a chosen id idempotent, also after a reopen", async () => {
    const h = harness(kind);
    const store = await h.open();
    store.getOrCreate("agent:main:i");
    const t = await store.openTranscriptAsync("agent:main:i", { cwd: "/w" });
    const first = t.append({ type: "message", id: "turn-1-user", message: { role: "user" } });
    const again = t.append({ type: "message", id: "turn-1-user", message: { role: "other" } });
    expect(again).toBe(first);
    expect(t.entries).toHaveLength(1);
    await store.flush();
    const reopened = await h.reopen();
    const t2 = await reopened.openTranscriptAsync("agent:main:i", { cwd: "/w" });
    t2.append({ type: "message", id: "turn-1-user", message: { role: "user" } });
    t2.append({ type: "message", id: "turn-1-reply", message: { role: "assistant" } });
    await reopened.flush();
    const read = await (await h.reopen()).readTranscriptAsync("agent:main:i");
    expect(read?.entries.map((e) => e.id)).toEqual(["turn-1-user", "turn-1-reply"]);
    expect(read?.entries[1]?.parentId).toBe("turn-1-user");
    await h.close();
  });

  it("prunes beyond maxEntries, least recently updated first", async () => {
    const h = harness(kind, 2);
    const store = await h.open();
    for (const key of ["agent:main:1", "agent:main:2", "agent:main:3"]) {
      store.getOrCreate(key);
      h.advance(1000);
    }
    const report = store.cleanup({ dryRun: false });
    expect(report.pruned.map((p) => p.key)).toEqual(["agent:main:1"]);
    const again = await h.reopen();
    expect(again.list().map((row) => row.key)).toEqual(["agent:main:3", "agent:main:2"]);
    await h.close();
  });
});
