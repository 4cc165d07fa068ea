// sessions.list at scale: 100,000 index entries written as a sessions.json before the gateway starts,
// then pages (default order, sorted by a column, searched, across agents) over a real WS client.
// The figures are printed, never asserted; the pages are checked against the same sort done here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf,
  type TestClient,
} from "./helpers/gateway-sandbox.js";

const N = 100_000;
const CHANNELS = ["telegram", "whatsapp", "discord", "slack"];
const T0 = 1_767_000_000_000;
const storeRoot = mkdtempSync(join(tmpdir(), "pincer-sessions-100k-"));

type Entry = Record<string, unknown> & { sessionId: string; updatedAt: number };

/** Entry i: a DM session with a spread of activity times, channels, token counts and models. */
function entryAt(i: number): [string, Entry] {
  const key = `agent:main:${CHANNELS[i % 4]}:direct:u${String((i * 7919) % N).padStart(6, "0")}`;
  const entry: Entry = {
    sessionId: `s-${i}`,
    updatedAt: T0 + ((i * 104_729) % N) * 1000,
    lastChannel: CHANNELS[i % 4],
    totalTokens: (i * 31) % 5000,
    model: i % 3 === 0 ? "fake/m1" : "fake/m2",
  };
  if (i === 4242) entry.label = "needle-haystack";
  return [key, entry];
}

const entries = Array.from({ length: N }, (_, i) => entryAt(i));

function writeStore(agentId: string, rows: Array<[string, Entry]>): void {
  mkdirSync(join(storeRoot, agentId), { recursive: true });
  writeFileSync(
    join(storeRoot, agentId, "sessions.json"),
    JSON.stringify(Object.fromEntries(rows)),
  );
}

let box: GatewaySandbox;
let client: TestClient;

async function list(params: Record<string, unknown>, label: string): Promise<Loose> {
  // Twice: the first call also pays for warming the code path; both figures are printed.
  const ms: string[] = [];
  let res = await client.request("sessions.list", params, 60_000);
  for (let round = 0; round < 2; round++) {
    const started = performance.now();
    res = await client.request("sessions.list", params, 60_000);
    ms.push((performance.now() - started).toFixed(1));
  }
  console.log(`sessions.list ${label} at ${N} sessions: ${ms.join(" / ")} ms (round trips)`);
  expect(res.ok, JSON.stringify(res.error)).toBe(true);
  return payloadOf(res);
}

beforeAll(async () => {
  writeStore("main", entries);
  writeStore("work", [["agent:work:main", { sessionId: "w-1", updatedAt: T0 + N * 1000 }]]);
  box = await createGatewaySandbox({
    config: () => ({
      agents: { list: [{ id: "main" }, { id: "work" }] },
      session: { store: join(storeRoot, "{agentId}", "sessions.json") },
    }),
  });
  client = await box.connect();
}, 120_000);
afterAll(async () => {
  await box?.close();
  rmSync(storeRoot, { recursive: true, force: true });
});

const keysOf = (page: Loose) => page.sessions.map((row: { key: string }) => row.key);

describe("sessions.list over 100,000 sessions", () => {
  it("answers one page of the newest with the total, never the whole store", async () => {
    const page = await list({ agentId: "main", limit: 50 }, "newest 50 of one agent");
    expect(page).toMatchObject({ total: N, count: 50, offset: 0 });
    const newest = [...entries].sort((a, b) => b[1].updatedAt - a[1].updatedAt).slice(0, 50);
    expect(keysOf(page)).toEqual(newest.map(([key]) => key));
    expect(page.sessions[0]).toMatchObject({ agentId: "main", lastChannel: expect.any(String) });
    const last = await list({ agentId: "main", limit: 50, offset: N - 10 }, "last page");
    expect(last).toMatchObject({ total: N, count: 10, offset: N - 10 });
  });

  it("sorts by a column (ties by key) and pages through it", async () => {
    const byTokens = [...entries].sort(
      (a, b) =>
        (a[1].totalTokens as number) - (b[1].totalTokens as number) ||
        (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
    );
    const page = await list(
      { agentId: "main", sort: "tokens", order: "asc", offset: 1000, limit: 25 },
      "sorted by tokens, offset 1000",
    );
    expect(keysOf(page)).toEqual(byTokens.slice(1000, 1025).map(([key]) => key));
    const byKey = entries.map(([key]) => key).sort();
    const keys = await list({ agentId: "main", sort: "key", order: "asc", limit: 10 }, "by key");
    expect(keysOf(keys)).toEqual(byKey.slice(0, 10));
    const channels = await list(
      { sort: "channel", order: "desc", limit: 5 },
      "every agent, by channel",
    );
    expect(channels.total).toBe(N + 1);
    expect(channels.sessions.every((row: Loose) => row.lastChannel === "whatsapp")).toBe(true);
  });

  it("searches key and label", async () => {
    const found = await list({ search: "NEEDLE", limit: 50 }, "search");
    expect(found.total).toBe(1);
    expect(found.sessions[0].label).toBe("needle-haystack");
    const byKey = await list({ agentId: "main", search: ":u000042", limit: 5 }, "search by key");
    expect(byKey.total).toBe(1);
  });

  it("refuses bad paging params naming the field", async () => {
    const bad = await client.request("sessions.list", { sort: "bogus" });
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect((bad.error as { message: string }).message).toContain("sort");
    const negative = await client.request("sessions.list", { offset: -1 });
    expect((negative.error as { message: string }).message).toContain("offset");
  });
});
