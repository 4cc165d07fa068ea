// The `pincer sessions …` command modules, run in-process against a temp state dir (their `run` is called
// directly, through test/helpers/cli-sandbox.ts's callCommand).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliRun, type CommandRun, callCommand } from "../../../test/helpers/cli-sandbox.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { acquireStateDirLock, openSessionStore, stateDirLockPath } from "../../sessions/index.js";
import { CliError } from "../command-context.js";
import * as cleanup from "./cleanup.js";
import * as del from "./delete.js";
import * as list from "./list.js";
import * as reset from "./reset.js";
import * as show from "./show.js";

const DAY = 86_400_000;

function sandbox(config?: string) {
  const home = makeTempDir("pincer-sessions-cli-");
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  if (config) writeFileSync(join(stateDir, "openclaw.json"), config);
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  const storeOf = (agentId: string) =>
    join(stateDir, "agents", agentId, "sessions", "sessions.json");
  /** Seeds sessions the way a gateway would (lock, create, transcript, close). */
  const seed = async (
    agentId: string,
    sessions: Array<{ key: string; ageMs: number; text?: string }>,
  ) => {
    const lock = acquireStateDirLock({ stateDir });
    const now = Date.now();
    let clock = now;
    const store = openSessionStore({
      storePath: storeOf(agentId),
      lock,
      clock: { now: () => clock },
    });
    for (const s of sessions) {
      clock = now - s.ageMs;
      store.getOrCreate(s.key, { chatType: s.key.includes(":group:") ? "group" : "direct" });
      if (s.text) {
        const t = store.openTranscript(s.key, { cwd: "/ws" });
        t.appendMessage({ role: "user", content: s.text });
        t.appendMessage({ role: "assistant", content: [{ type: "text", text: `re: ${s.text}` }] });
      }
    }
    await store.close();
    lock.release();
  };
  /** Calls a command; a CliError becomes its exit code and message, as program.ts reports it. */
  const run = (mod: { run: CommandRun }, args: string[], opts: Record<string, unknown> = {}) =>
    callCommand(mod.run, env, { args, opts }).catch((err: unknown): CliRun => {
      if (err instanceof CliError) return { code: err.exitCode, stdout: "", stderr: err.message };
      throw err;
    });
  return { home, stateDir, storeOf, seed, run };
}

describe("pincer sessions list", () => {
  it("lists the default agent's sessions newest first, with --active and --json", async () => {
    const sb = sandbox();
    await sb.seed("main", [
      { key: "agent:main:main", ageMs: 5 * 60_000 },
      { key: "agent:main:telegram:group:-100123", ageMs: 3 * 3_600_000 },
    ]);
    const text = await sb.run(list, []);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "Sessions of main (2) — ~/.openclaw/agents/main/sessions/sessions.json",
    );
    expect(text.stdout.indexOf("agent:main:main")).toBeLessThan(
      text.stdout.indexOf("agent:main:telegram:group:-100123"),
    );
    expect(text.stdout).toMatch(/group\s+agent:main:telegram:group:-100123\s+3h ago/);
    const json = JSON.parse((await sb.run(list, [], { active: "60", json: true })).stdout);
    expect(json).toMatchObject({ count: 1, activeMinutes: 60, path: sb.storeOf("main") });
    expect(json.sessions[0]).toMatchObject({
      agentId: "main",
      key: "agent:main:main",
      kind: "direct",
    });
  });

  it("lists every agent with --all-agents and rejects unknown agents and bad --active", async () => {
    const sb = sandbox(`{ agents: { list: [{ id: "home", default: true }, { id: "work" }] } }`);
    await sb.seed("home", [{ key: "agent:home:main", ageMs: 1000 }]);
    await sb.seed("work", [{ key: "agent:work:slack:channel:c1", ageMs: 1000 }]);
    const json = JSON.parse((await sb.run(list, [], { allAgents: true, json: true })).stdout);
    expect(json.sessions.map((row: { key: string }) => row.key)).toEqual([
      "agent:home:main",
      "agent:work:slack:channel:c1",
    ]);
    const only = JSON.parse((await sb.run(list, [], { agent: "work", json: true })).stdout);
    expect(only.count).toBe(1);
    expect((await sb.run(list, [], { agent: "nope" })).stderr).toContain('unknown agent "nope"');
    expect((await sb.run(list, [], { active: "soon" })).code).toBe(2);
    expect((await sb.run(list, [], { agent: "work", allAgents: true })).code).toBe(2);
  });

  it("reads while a gateway holds the lock", async () => {
    const sb = sandbox();
    await sb.seed("main", [{ key: "agent:main:main", ageMs: 0 }]);
    const gateway = acquireStateDirLock({ stateDir: sb.stateDir, command: "gateway" });
    expect((await sb.run(list, [], { json: true })).code).toBe(0);
    gateway.release();
  });
});

describe("pincer sessions: store warnings", () => {
  it("prints the store's warnings on stderr as `warning: …` lines, and never fails for them", async () => {
    const t = sandbox();
    await t.seed("main", [{ key: "agent:main:main", ageMs: 0 }]);
    const store = JSON.parse(readFileSync(t.storeOf("main"), "utf8")) as Record<string, unknown>;
    store["agent:main:broken"] = { updatedAt: 1 };
    writeFileSync(t.storeOf("main"), JSON.stringify(store));
    const listed = await t.run(list, [], { json: true });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe(
      `warning: ${t.storeOf("main")}: skipped 1 entries without a sessionId: agent:main:broken\n`,
    );
  });
});

describe("pincer sessions show", () => {
  it("resolves `main` to the agent's main key and prints the branch tail", async () => {
    const sb = sandbox();
    await sb.seed("main", [{ key: "agent:main:main", ageMs: 0, text: "hello" }]);
    const res = await sb.run(show, ["main"], { tail: "1" });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Session agent:main:main (agent main)");
    expect(res.stdout).toContain("Last 1 of 2 entries on the current branch:");
    expect(res.stdout).toMatch(/assistant\s+re: hello/);
    const json = JSON.parse((await sb.run(show, ["Agent:Main:Main"], { json: true })).stdout);
    expect(json.transcript).toMatchObject({ entries: 2, branchLength: 2, version: 3 });
    expect(json.transcript.tail).toHaveLength(2);
  });

  it("fails clearly for an unknown key or a key of another agent", async () => {
    const sb = sandbox(`{ agents: { list: [{ id: "home" }, { id: "work" }] } }`);
    await sb.seed("home", [{ key: "agent:home:main", ageMs: 0 }]);
    expect((await sb.run(show, ["agent:home:nope"])).stderr).toContain(
      "no session agent:home:nope",
    );
    expect((await sb.run(show, ["agent:home:main"], { agent: "work" })).code).toBe(2);
  });
});

describe("pincer sessions reset / delete / cleanup", () => {
  it("reset archives the old transcript and starts a new session id", async () => {
    const sb = sandbox();
    await sb.seed("main", [{ key: "agent:main:main", ageMs: 0, text: "hi" }]);
    const res = JSON.parse((await sb.run(reset, ["main"], { json: true })).stdout);
    expect(res.sessionId).not.toBe(res.previousSessionId);
    expect(res.archivedTranscript).toMatch(
      /\.jsonl\.reset\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/,
    );
    expect(existsSync(res.archivedTranscript)).toBe(true);
    expect(existsSync(stateDirLockPath(sb.stateDir))).toBe(false);
  });

  it("refuses mutations while a live gateway holds the state-dir lock", async () => {
    const sb = sandbox();
    await sb.seed("main", [{ key: "agent:main:main", ageMs: 0 }]);
    const gateway = acquireStateDirLock({ stateDir: sb.stateDir, command: "gateway" });
    const res = await sb.run(reset, ["main"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`locked by pid ${process.pid} (gateway)`);
    expect(res.stderr).toContain("stop it before running");
    gateway.release();
  });

  it("delete archives the transcript, and refuses the main session", async () => {
    const sb = sandbox();
    await sb.seed("main", [
      { key: "agent:main:main", ageMs: 0 },
      { key: "agent:main:discord:channel:abc", ageMs: 0, text: "yo" },
    ]);
    const res = await sb.run(del, ["discord:channel:ABC"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("Deleted agent:main:discord:channel:abc");
    expect(res.stdout).toMatch(/transcript kept as .*\.jsonl\.deleted\./);
    expect((await sb.run(del, ["main"])).stderr).toContain("cannot delete the main session");
  });

  it("cleanup --dry-run reports, cleanup prunes", async () => {
    const sb = sandbox(`{ session: { maintenance: { pruneAfter: "7d" } } }`);
    await sb.seed("main", [
      { key: "agent:main:main", ageMs: 0 },
      { key: "agent:main:old", ageMs: 10 * DAY, text: "old" },
    ]);
    const dry = await sb.run(cleanup, [], { dryRun: true });
    expect(dry.stdout).toContain(
      "would prune 1 sessions (1 idle > 7d, 0 over the 5000 cap); 1 remain",
    );
    expect(JSON.parse((await sb.run(list, [], { json: true })).stdout).count).toBe(2);
    const real = JSON.parse((await sb.run(cleanup, [], { json: true })).stdout);
    expect(real.stores[0].pruned.map((p: { key: string }) => p.key)).toEqual(["agent:main:old"]);
    expect(real.stores[0].archivedTranscripts).toHaveLength(1);
    expect(JSON.parse((await sb.run(list, [], { json: true })).stdout).count).toBe(1);
  });
});
