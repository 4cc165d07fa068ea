// `pincer sessions export|import` between files and a real PostgreSQL: a real OpenClaw store plus a
// Pincer store with a reset archive go files → PostgreSQL → files and come back with the same entries
// (byte-equivalent JSON) and the same transcript lines and names; existing sessions are refused
// without --force; an import into a PostgreSQL-configured gateway is what its store then loads.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveStatePaths } from "../src/config/paths.js";
import {
  acquireStateDirLock,
  openSessionStore,
  SessionStoreRegistry,
} from "../src/sessions/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import { writeOpenClawStore } from "./helpers/openclaw-store.js";
import { createTestDatabase } from "./helpers/postgres.js";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const db = await createTestDatabase("sessions_pg_transfer");

async function seedWork(stateDir: string) {
  const lock = acquireStateDirLock({ stateDir });
  const store = openSessionStore({
    storePath: join(stateDir, "agents", "work", "sessions", "sessions.json"),
    lock,
  });
  store.getOrCreate("agent:work:main", { label: "work" });
  store.openTranscript("agent:work:main", { cwd: "/ws" }).appendMessage({
    role: "user",
    content: "before the reset",
  });
  store.reset("agent:work:main");
  store.openTranscript("agent:work:main", { cwd: "/ws" }).appendMessage({
    role: "user",
    content: 'after "the" reset \\ ünïcödé',
  });
  await store.close();
  lock.release();
}

/** Per agent: the entries' JSON by key, and every transcript file's non-empty lines by name. */
function snapshot(stateDir: string) {
  const out: Record<string, { entries: Record<string, string>; files: Record<string, string[]> }> =
    {};
  for (const agent of ["main", "work"]) {
    const dir = join(stateDir, "agents", agent, "sessions");
    const index = JSON.parse(readFileSync(join(dir, "sessions.json"), "utf8"));
    const entries = Object.fromEntries(
      Object.entries(index).map(([key, value]) => [key, JSON.stringify(value)]),
    );
    const files: Record<string, string[]> = {};
    for (const name of readdirSync(dir)
      .filter((n) => n.includes(".jsonl"))
      .sort()) {
      files[name] = readFileSync(join(dir, name), "utf8").split("\n").filter(Boolean);
    }
    out[agent] = { entries, files };
  }
  return out;
}

const agents = { list: [{ id: "main", default: true }, { id: "work" }] };

describe.skipIf(!db)("sessions export/import with PostgreSQL", () => {
  it("round-trips files → PostgreSQL → files losslessly and refuses overwrites without --force", async () => {
    const source = createCliSandbox();
    source.writeConfig(JSON.stringify({ agents }));
    writeOpenClawStore({ stateDir: source.stateDir });
    await seedWork(source.stateDir);
    const before = snapshot(source.stateDir);
    expect(Object.keys(before.work!.files).some((n) => n.includes(".jsonl.reset."))).toBe(true);

    const exported = await source.run([
      "sessions",
      "export",
      "--to",
      db!.url,
      "--schema",
      "rt",
      "--json",
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const counts = JSON.parse(exported.stdout);
    expect(counts).toMatchObject({ agents: 2, sessions: 3, archived: 1 });
    expect(counts.transcripts).toBeGreaterThanOrEqual(4);

    const again = await source.run(["sessions", "export", "--to", db!.url, "--schema", "rt"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("--force");
    const forced = await source.run([
      "sessions",
      "export",
      "--to",
      db!.url,
      "--schema",
      "rt",
      "--force",
    ]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain("Exported 3 sessions");

    // A gateway configured on that database loads the imported sessions.
    const home = makeTempDir("pincer-pg-transfer-");
    const paths = resolveStatePaths({ env: { HOME: home, OPENCLAW_STATE_DIR: home } });
    const registry = new SessionStoreRegistry({
      cfg: { agents, cluster: { store: { kind: "postgres", url: db!.url, schema: "rt" } } },
      paths,
    });
    await registry.ready();
    const main = registry.forAgent("main");
    expect(main.list().map((row) => row.key)).toEqual(
      openSessionStore({ storePath: join(source.stateDir, "agents/main/sessions/sessions.json") })
        .list()
        .map((row) => row.key),
    );
    const read = await main.readTranscriptAsync("agent:main:main");
    expect(read?.entries.length).toBeGreaterThan(3);
    await registry.closeAll();

    const target = createCliSandbox();
    const cluster = { store: { kind: "postgres", url: db!.url, schema: "rt" } };
    target.writeConfig(JSON.stringify({ agents, cluster }));
    const outDir = makeTempDir("pincer-export-");
    const back = await target.run(["sessions", "export", "--to", outDir]);
    expect(back.code, back.stderr).toBe(0);
    expect(snapshot(outDir)).toEqual(before);

    // The sessions commands read (and write) PostgreSQL when the config says so.
    const listed = await target.run(["sessions", "--all-agents", "--json"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).sessions.map((row: { key: string }) => row.key)).toEqual(
      expect.arrayContaining(["agent:main:main", "agent:work:main"]),
    );
    const shown = await target.run(["sessions", "show", "agent:work:main"]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("after");

    // And an import from that directory into files gives the same store again.
    const files = createCliSandbox();
    files.writeConfig(JSON.stringify({ agents }));
    const imported = await files.run(["sessions", "import", "--from", outDir]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(snapshot(files.stateDir)).toEqual(before);
    const refused = await files.run(["sessions", "import", "--from", outDir, "--agent", "work"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("already has");
  }, 60_000);
});
