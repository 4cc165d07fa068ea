// `pincer doctor`: every check against a real temp state dir (real session store, real lock files, real
// fake provider servers on port 0 and a refused port), what --fix repairs and what it leaves alone.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { closedPort } from "../../../test/helpers/gateway-sandbox.js";
import { acquireStateDirLock, openSessionStore } from "../../sessions/index.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

async function fakeProvider(): Promise<string> {
  const server = createServer((_req, res) => res.end("{}"));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
}

/** A pid that is not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "0"]);
  return child.pid as number;
}

/** Writes one session with its transcript through the real store (index and file agree). */
async function writeSession(stateDir: string, key: string): Promise<string> {
  const lock = acquireStateDirLock({ stateDir });
  const store = openSessionStore({
    storePath: join(stateDir, "agents", "main", "sessions", "sessions.json"),
    lock,
  });
  store.getOrCreate(key);
  const file = store.openTranscript(key, { cwd: "/tmp" }).file;
  await store.close();
  lock.release();
  return file;
}

function healthyConfig(sandbox: CliSandbox, baseUrl: string, extra: object = {}): void {
  const workspace = join(sandbox.home, "ws");
  mkdirSync(workspace, { recursive: true });
  sandbox.writeConfig(
    JSON.stringify({
      agents: { defaults: { workspace } },
      models: { providers: { local: { baseUrl, api: "openai-completions", models: [] } } },
      ...extra,
    }),
  );
  chmodSync(sandbox.stateDir, 0o700);
  chmodSync(sandbox.configPath, 0o600);
}

async function doctorJson(sandbox: CliSandbox, flags: string[] = []) {
  const run = await sandbox.run(["doctor", "--json", ...flags]);
  const body = JSON.parse(run.stdout) as {
    ok: boolean;
    findings: Array<{
      checkId: string;
      severity: string;
      message: string;
      path?: string;
      line?: number;
      fixable: boolean;
    }>;
    repairs: Array<{ checkId: string; action: string; ok: boolean }>;
  };
  return { code: run.code, body, stderr: run.stderr };
}

describe("pincer doctor", () => {
  it("finds nothing in a healthy state dir and exits 0", async () => {
    const sandbox = createCliSandbox();
    healthyConfig(sandbox, await fakeProvider());
    await writeSession(sandbox.stateDir, "agent:main:main");
    const run = await sandbox.run(["doctor"]);
    expect(run.stdout).toBe("no problems found\n");
    expect(run.code).toBe(0);
  });

  it("checks model refs as gateway start does, and lists keys Pincer ignores as info", async () => {
    const sandbox = createCliSandbox();
    healthyConfig(sandbox, await fakeProvider(), {
      agents: { defaults: { workspace: join(sandbox.home, "ws"), model: "openai/gpt-4o-mnii" } },
      cron: { enabled: true, sessionRetention: "24h" },
    });
    const { code, body } = await doctorJson(sandbox, ["--offline"]);
    const config = body.findings.filter((finding) => finding.checkId === "config");
    const model = config.find((finding) => finding.message.startsWith("agents.defaults.model"));
    expect(model).toMatchObject({ severity: "error" });
    expect(model?.message).toContain("did you mean");
    expect(
      config.find((finding) => finding.message.startsWith("cron.sessionRetention:")),
    ).toMatchObject({
      severity: "info",
    });
    expect(code).toBe(1);
  });

  it("reports each problem with its severity, and --fix repairs only the safe ones", async () => {
    const sandbox = createCliSandbox();
    const refused = await closedPort();
    healthyConfig(sandbox, await fakeProvider(), {
      bogus: true,
      agents: { list: [{ id: "main", workspace: join(sandbox.home, "missing-ws") }] },
    });
    // The config's providers: one reachable (from healthyConfig), one refused, one unknown host.
    writeFileSync(
      sandbox.configPath,
      JSON.stringify({
        bogus: true,
        agents: { list: [{ id: "main", workspace: join(sandbox.home, "missing-ws") }] },
        models: {
          providers: {
            up: { baseUrl: await fakeProvider(), models: [] },
            down: { baseUrl: `http://127.0.0.1:${refused}/v1`, models: [] },
            typo: { baseUrl: "https://api.nonexistent-host.invalid/v1", models: [] },
          },
        },
      }),
    );
    chmodSync(sandbox.stateDir, 0o755);
    const tokenFile = join(sandbox.stateDir, "gateway.token");
    writeFileSync(tokenFile, "secret\n", { mode: 0o644 });
    chmodSync(tokenFile, 0o644);
    const transcript = await writeSession(sandbox.stateDir, "agent:main:main");
    const orphan = join(sandbox.stateDir, "agents", "main", "sessions", "lost-session.jsonl");
    writeFileSync(orphan, '{"type":"session","id":"lost-session"}\n');
    const stateLock = join(sandbox.stateDir, "gateway.lock");
    writeFileSync(stateLock, JSON.stringify({ pid: deadPid(), createdAt: "2026-01-01T00:00:00Z" }));
    const configLock = `${sandbox.configPath}.lock`;
    writeFileSync(configLock, JSON.stringify({ pid: deadPid(), since: 1 }));

    const before = await doctorJson(sandbox);
    expect(before.code).toBe(1);
    const byCheck = (id: string) => before.body.findings.filter((f) => f.checkId === id);
    expect(byCheck("config")).toEqual([
      expect.objectContaining({
        severity: "error",
        path: sandbox.configPath,
        line: 1,
        fixable: false,
      }),
    ]);
    expect(byCheck("config")[0]?.message).toContain("bogus");
    expect(byCheck("permissions").map((f) => [f.path, f.severity])).toEqual([
      [sandbox.stateDir, "warning"],
      [tokenFile, "error"],
    ]);
    expect(
      byCheck("locks")
        .map((f) => f.path)
        .sort(),
    ).toEqual([configLock, stateLock].sort());
    expect(byCheck("orphan-transcripts").map((f) => f.path)).toEqual([orphan]);
    expect(byCheck("workspaces")).toEqual([
      expect.objectContaining({
        severity: "warning",
        path: join(sandbox.home, "missing-ws"),
        fixable: true,
      }),
    ]);
    const providers = byCheck("providers").map((f) => f.message);
    expect(providers).toHaveLength(2);
    expect(providers.find((m) => m.includes("provider down"))).toContain("refused (ECONNREFUSED)");
    expect(providers.find((m) => m.includes("provider typo"))).toContain(
      "DNS lookup of api.nonexistent-host.invalid failed",
    );

    const human = await sandbox.run(["doctor"]);
    expect(human.stdout).toMatch(
      /^error {3}\[config\] bogus: .*\(.*openclaw\.json:1:\d+\) — fix: /m,
    );
    expect(human.stdout).toMatch(
      /^warning \[orphan-transcripts\] transcript .*lost-session\.jsonl/m,
    );
    expect(human.stdout).toContain("can be fixed with pincer doctor --fix");

    const fixed = await doctorJson(sandbox, ["--fix"]);
    expect(fixed.code).toBe(1);
    expect(fixed.body.repairs.every((r) => r.ok)).toBe(true);
    expect(fixed.body.repairs.map((r) => r.checkId).sort()).toEqual(
      ["locks", "locks", "permissions", "permissions", "workspaces"].sort(),
    );
    expect(statSync(sandbox.stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(existsSync(stateLock) || existsSync(configLock)).toBe(false);
    expect(existsSync(join(sandbox.home, "missing-ws", "AGENTS.md"))).toBe(true);
    expect(existsSync(join(sandbox.home, "missing-ws", "BOOTSTRAP.md"))).toBe(true);
    // History is never touched; config and network problems are left to the user.
    expect(existsSync(orphan) && existsSync(transcript)).toBe(true);
    expect(fixed.body.findings.map((f) => f.checkId).sort()).toEqual(
      ["config", "orphan-transcripts", "providers", "providers"].sort(),
    );
  });

  it("leaves a live owner's lock alone and exits 0 once only info remains", async () => {
    const sandbox = createCliSandbox();
    healthyConfig(sandbox, await fakeProvider());
    const stateLock = join(sandbox.stateDir, "gateway.lock");
    writeFileSync(
      stateLock,
      JSON.stringify({ pid: process.pid, createdAt: "2026-01-01T00:00:00Z" }),
    );
    const run = await doctorJson(sandbox, ["--fix", "--offline"]);
    expect(run.code).toBe(0);
    expect(run.body.ok).toBe(true);
    expect(run.body.findings).toEqual([
      expect.objectContaining({
        checkId: "providers",
        severity: "info",
        message: expect.stringContaining("--offline"),
      }),
    ]);
    expect(existsSync(stateLock)).toBe(true);
  });

  it("finds the state dir a first `config set` creates private (0700) and its config 0600", async () => {
    const sandbox = createCliSandbox();
    expect((await sandbox.run(["config", "set", "gateway.port", "18790"])).code).toBe(0);
    expect(statSync(sandbox.stateDir).mode & 0o777).toBe(0o700);
    const run = await doctorJson(sandbox, ["--offline"]);
    expect(run.body.findings.filter((f) => f.checkId === "permissions")).toEqual([]);
  });

  it("reports a missing config and state dir as info, and --yes creates the default workspace", async () => {
    const sandbox = createCliSandbox();
    const before = await doctorJson(sandbox);
    expect(before.body.findings.map((f) => [f.checkId, f.severity])).toEqual([
      ["config", "info"],
      ["permissions", "info"],
      ["workspaces", "warning"],
    ]);
    const after = await doctorJson(sandbox, ["--yes", "--non-interactive"]);
    expect(after.code).toBe(0);
    expect(existsSync(join(sandbox.stateDir, "workspace", "SOUL.md"))).toBe(true);
  });
});
