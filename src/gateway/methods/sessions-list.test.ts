import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import type { ResolvedConfig } from "../../config/index.js";
import { openSessionStore, type SessionEntry, type SessionStore } from "../../sessions/index.js";
import { listSessionsPage } from "./sessions-list.js";

const NOW = 1_800_000_000_000;

/** A read-only store per agent loaded from a sessions.json, and the deps listSessionsPage takes. */
function depsFor(byAgent: Record<string, Record<string, SessionEntry>>) {
  const root = makeTempDir("pincer-sessions-list-");
  const stores = new Map<string, SessionStore>();
  for (const [agentId, rows] of Object.entries(byAgent)) {
    const dir = join(root, agentId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "sessions.json"), JSON.stringify(rows));
    stores.set(
      agentId,
      openSessionStore({ storePath: join(dir, "sessions.json"), clock: { now: () => NOW } }),
    );
  }
  const config = () =>
    ({ agents: [...stores.keys()].map((id) => ({ id })) }) as unknown as ResolvedConfig;
  return {
    config,
    stores: { forAgent: (id: string) => stores.get(id)! } as never,
    now: () => NOW,
  };
}

/** Deterministic pseudo-random rows: tokens and times with many ties. */
function rows(agentId: string, n: number, seed: number): Record<string, SessionEntry> {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  const out: Record<string, SessionEntry> = {};
  for (let i = 0; i < n; i++) {
    out[`agent:${agentId}:s${next() % 100_000}-${i}`] = {
      sessionId: `${agentId}-${i}`,
      updatedAt: NOW - (next() % 50) * 60_000,
      totalTokens: next() % 20,
      ...(i % 10 === 0 ? { label: "ten" } : {}),
    };
  }
  return out;
}

const keys = (page: { sessions: Array<{ key: string }> }) => page.sessions.map((row) => row.key);

describe("listSessionsPage", () => {
  const data = { main: rows("main", 400, 7), work: rows("work", 250, 11) };
  const deps = depsFor(data);
  const all = Object.entries(data).flatMap(([agentId, entries]) =>
    Object.entries(entries).map(([key, entry]) => ({ key, agentId, entry })),
  );

  it("pages every agent's sessions in a column's order, ties by key, as a full sort would", () => {
    const byTokens = [...all].sort(
      (a, b) => (b.entry.totalTokens ?? 0) - (a.entry.totalTokens ?? 0) || (a.key < b.key ? 1 : -1),
    );
    for (const offset of [0, 7, 300, 640]) {
      const page = listSessionsPage({ sort: "tokens", offset, limit: 20 }, deps);
      expect(page.total).toBe(650);
      expect(keys(page)).toEqual(byTokens.slice(offset, offset + 20).map((row) => row.key));
    }
  });

  it("merges the agents' recency lists for the default order and counts without listing", () => {
    const newest = [...all].sort(
      (a, b) => b.entry.updatedAt - a.entry.updatedAt || (a.key < b.key ? 1 : -1),
    );
    const page = listSessionsPage({ offset: 30, limit: 15 }, deps);
    expect(page).toMatchObject({ total: 650, offset: 30, count: 15 });
    expect(page.sessions.map((row) => row.updatedAt)).toEqual(
      newest.slice(30, 45).map((row) => row.entry.updatedAt),
    );
    const one = listSessionsPage({ agentId: "work", limit: 5 }, deps);
    expect(one.total).toBe(250);
    expect(one.sessions.every((row) => row.agentId === "work")).toBe(true);
  });

  it("filters by activity, label and search before counting", () => {
    const active = all.filter((row) => row.entry.updatedAt >= NOW - 10 * 60_000).length;
    expect(listSessionsPage({ activeMinutes: 10, limit: 1 }, deps).total).toBe(active);
    const labelled = listSessionsPage({ label: "ten", sort: "key", order: "asc" }, deps);
    expect(labelled.total).toBe(all.filter((row) => row.entry.label === "ten").length);
    expect(keys(labelled)).toEqual(keys(labelled).slice().sort());
    const found = listSessionsPage({ search: "WORK:", limit: 500 }, deps);
    expect(found.total).toBe(250);
    expect(listSessionsPage({ limit: 10, offset: 10_000 }, deps)).toMatchObject({
      count: 0,
      total: 650,
    });
  });
});
