// The Docker sandbox backend against the real daemon: labels, reuse, recreate on a config-hash
// change, setupCommand once, limits and network as `docker inspect` reads them back, a stop that
// ends the process inside the container, list/remove, refused mounts, and Docker unavailable.
// The image is built offline from the host's binaries (test/helpers/sandbox-image.ts). Without a
// usable Docker the file skips with a loud notice; under CI=true it is required.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxCommand, SandboxHandle, SandboxSpec } from "../src/runtime/sandbox/backend.js";
import { createDockerBackend } from "../src/runtime/sandbox/docker/backend.js";
import {
  dockerSkipNotice,
  ensureSandboxTestImage,
  probeDocker,
  removeSandboxContainers,
} from "./helpers/sandbox-image.js";

const probe = probeDocker();
const notice = dockerSkipNotice(probe);
if (notice) console.warn(notice);

/** Runs a sandbox command to its end: exit code and combined output. */
function runCommand(command: SandboxCommand): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const [program, ...args] = command.argv;
    const child = spawn(program as string, args, {
      env: command.env,
      cwd: command.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => resolveRun({ code, output }));
  });
}

/** The fields of `docker inspect` the tests read back. */
interface Inspected {
  Id: string;
  Config: { Labels: Record<string, string>; User: string; Env: string[]; Hostname: string };
  State: { Running: boolean };
  HostConfig: {
    NetworkMode: string;
    ReadonlyRootfs: boolean;
    CapDrop: string[];
    SecurityOpt: string[];
    Memory: number;
    NanoCpus: number;
    PidsLimit: number;
  };
}

function inspect(name: string): Inspected {
  const run = spawnSync("docker", ["inspect", "--type", "container", name], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout)[0];
}

function containerExists(name: string): boolean {
  return (
    spawnSync("docker", ["inspect", "--type", "container", name], { stdio: "ignore" }).status === 0
  );
}

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe.skipIf(notice !== undefined)("Docker sandbox backend", () => {
  const root = mkdtempSync(join(tmpdir(), "pincer-sbx-docker-"));
  const stateDir = join(root, "state");
  const workspaceRoot = join(stateDir, "sandboxes");
  const agentWorkspace = join(root, "agent-workspace");
  const env = { ...process.env, OPENCLAW_STATE_DIR: stateDir };
  const backend = createDockerBackend({ env });
  let image = "";

  beforeAll(async () => {
    mkdirSync(workspaceRoot, { recursive: true });
    mkdirSync(agentWorkspace, { recursive: true });
    writeFileSync(join(stateDir, "openclaw.json"), "{}");
    image = await ensureSandboxTestImage();
  }, 120_000);

  afterAll(() => {
    removeSandboxContainers(workspaceRoot);
    rmSync(root, { recursive: true, force: true });
  });

  /** A spec for scope `key`, with a sandbox workspace of its own under the workspace root. */
  function spec(key: string, overrides: Partial<SandboxSpec> = {}): SandboxSpec {
    const workspaceDir = join(workspaceRoot, key);
    mkdirSync(workspaceDir, { recursive: true });
    return {
      backend: "docker",
      agentId: "main",
      sessionKey: `agent:main:${key}`,
      scope: "session",
      scopeKey: `session:agent:main:${key}`,
      workspaceAccess: "none",
      workspaceDir,
      workspaceRoot,
      binds: [],
      network: "none",
      env: {},
      readOnlyRoot: true,
      capDrop: ["ALL"],
      image,
      configHash: "hash-1",
      ...overrides,
    };
  }

  async function exec(handle: SandboxHandle, command: string) {
    return runCommand(handle.command({ command, workdir: "/workspace" }));
  }

  it("reports Docker available with the server version", async () => {
    const available = await backend.available();
    expect(available.ok).toBe(true);
    if (available.ok) expect(available.version).toMatch(/^\d+\.\d+/);
  });

  it("creates a labelled, locked-down container and runs commands inside it", async () => {
    const handle = unwrap(
      await backend.ensure(
        spec("limits", {
          memory: "256m",
          cpus: 0.5,
          pidsLimit: 64,
          user: "65534:65534",
          env: { GREETING: "hello" },
        }),
      ),
    );
    expect(handle.created).toBe(true);
    const info = inspect(handle.id);
    expect(info.Config.Labels).toMatchObject({
      "openclaw.sandbox": "1",
      "openclaw.sessionKey": "agent:main:limits",
      "openclaw.agentId": "main",
      "openclaw.scope": "session",
      "openclaw.configHash": "hash-1",
      "pincer.workspaceRoot": workspaceRoot,
    });
    expect(info.HostConfig.NetworkMode).toBe("none");
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
    expect(info.HostConfig.SecurityOpt).toContain("no-new-privileges");
    expect(info.HostConfig.Memory).toBe(256 * 1024 * 1024);
    expect(info.HostConfig.NanoCpus).toBe(500_000_000);
    expect(info.HostConfig.PidsLimit).toBe(64);
    expect(info.Config.User).toBe("65534:65534");
    expect(info.Config.Env).toContain("GREETING=hello");
    const run = await exec(handle, 'hostname; id -u; echo "$GREETING"; cat /proc/net/dev | wc -l');
    expect(run.code).toBe(0);
    const [name, uid, greeting, netLines] = run.output.trim().split("\n");
    expect(name).not.toBe(hostname());
    expect(name).toBe(info.Config.Hostname);
    expect([uid, greeting]).toEqual(["65534", "hello"]);
    // Two header lines and the loopback device: no other interface under --network none.
    expect(Number(netLines)).toBe(3);
    const rootWrite = await exec(handle, "touch /etc/pincer-probe");
    expect(rootWrite.code).not.toBe(0);
    expect(rootWrite.output).toMatch(/Read-only file system/);
  });

  it("mounts the workspace per access mode: rw lands in the host dir, ro refuses writes", async () => {
    const rw = unwrap(
      await backend.ensure(spec("rw", { workspaceAccess: "rw", workspaceDir: agentWorkspace })),
    );
    expect((await exec(rw, "echo from-container > /workspace/out.txt")).code).toBe(0);
    expect(readFileSync(join(agentWorkspace, "out.txt"), "utf8")).toBe("from-container\n");
    const ro = unwrap(
      await backend.ensure(spec("ro", { workspaceAccess: "ro", workspaceDir: agentWorkspace })),
    );
    expect((await exec(ro, "cat /workspace/out.txt")).output).toBe("from-container\n");
    const refused = await exec(ro, "echo x > /workspace/other.txt");
    expect(refused.code).not.toBe(0);
    expect(existsSync(join(agentWorkspace, "other.txt"))).toBe(false);
    const ls = await exec(ro, "ls /");
    expect(ls.output).not.toMatch(/state|sandboxes/);
  });

  it("reuses the container while the hash matches, runs setupCommand once, recreates on a change", async () => {
    const setupCommand = "echo ran >> /workspace/setup.log";
    const first = unwrap(await backend.ensure(spec("reuse", { setupCommand })));
    const firstId = inspect(first.id).Id;
    const again = unwrap(await backend.ensure(spec("reuse", { setupCommand })));
    expect(again.created).toBe(false);
    expect(inspect(again.id).Id).toBe(firstId);
    const log = join(workspaceRoot, "reuse", "setup.log");
    expect(readFileSync(log, "utf8")).toBe("ran\n");
    const changed = unwrap(
      await backend.ensure(spec("reuse", { setupCommand, configHash: "hash-2" })),
    );
    expect(changed.created).toBe(true);
    expect(inspect(changed.id).Id).not.toBe(firstId);
    expect(inspect(changed.id).Config.Labels["openclaw.configHash"]).toBe("hash-2");
    expect(readFileSync(log, "utf8")).toBe("ran\nran\n");
  });

  it("two backends (two runs) ensuring one scope at once share one container", async () => {
    const other = createDockerBackend({ env });
    const [a, b] = await Promise.all([backend.ensure(spec("race")), other.ensure(spec("race"))]);
    const [first, second] = [unwrap(a), unwrap(b)];
    expect(first.id).toBe(second.id);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect((await exec(second, "echo ok")).output).toBe("ok\n");
  });

  it("starts a stopped container again instead of recreating it", async () => {
    const first = unwrap(await backend.ensure(spec("restart")));
    const id = inspect(first.id).Id;
    expect(spawnSync("docker", ["stop", "-t", "0", first.id]).status).toBe(0);
    const again = unwrap(await backend.ensure(spec("restart")));
    expect(again.created).toBe(false);
    expect(inspect(again.id).Id).toBe(id);
    expect(inspect(again.id).State.Running).toBe(true);
  });

  it("a failing setupCommand is an error naming it and leaves no container", async () => {
    const failed = await backend.ensure(
      spec("setup-fails", { setupCommand: "echo broken >&2; exit 3" }),
    );
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.error).toMatch(/sandbox\.docker\.setupCommand failed \(exit code 3\)/);
      expect(failed.error).toMatch(/broken/);
    }
    const listed = unwrap(await backend.list({ workspaceRoots: [workspaceRoot] }));
    expect(listed.some((instance) => instance.scopeKey.endsWith("setup-fails"))).toBe(false);
  });

  it("stop ends the command's whole process group inside the container", async () => {
    const handle = unwrap(await backend.ensure(spec("stop")));
    const command = handle.command({
      command: "sleep 1000 & sleep 1001 & echo started; wait",
      workdir: "/workspace",
    });
    const [program, ...args] = command.argv;
    const child = spawn(program as string, args, {
      env: command.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const closed = new Promise<number | null>((resolveClose) => child.on("close", resolveClose));
    await new Promise<void>((resolveStarted) =>
      child.stdout.on("data", (chunk) => {
        if (String(chunk).includes("started")) resolveStarted();
      }),
    );
    const before = await exec(handle, "ps -eo args");
    expect(before.output).toMatch(/sleep 1000/);
    expect(command.stop).toBeDefined();
    await command.stop?.("SIGTERM");
    expect(await closed).not.toBe(0);
    const after = await exec(handle, "ps -eo args");
    expect(after.output).not.toMatch(/sleep 100[01]/);
  });

  it("lists its containers with their labels and removes them", async () => {
    const handle = unwrap(
      await backend.ensure(spec("listed", { scope: "agent", scopeKey: "agent:main" })),
    );
    const listed = unwrap(await backend.list({ workspaceRoots: [workspaceRoot] }));
    const mine = listed.find((instance) => instance.id === handle.id);
    expect(mine).toMatchObject({
      backend: "docker",
      agentId: "main",
      scope: "agent",
      scopeKey: "agent:main",
      configHash: "hash-1",
      image,
      running: true,
    });
    expect(mine?.lastUsedAt).toBeGreaterThanOrEqual(mine?.createdAt ?? Number.POSITIVE_INFINITY);
    const elsewhere = unwrap(await backend.list({ workspaceRoots: [join(root, "other-root")] }));
    expect(elsewhere.some((instance) => instance.id === handle.id)).toBe(false);
    if (!mine) throw new Error("not listed");
    unwrap(await backend.remove(mine));
    expect(containerExists(handle.id)).toBe(false);
    unwrap(await backend.remove(mine));
  });

  it("refuses mounts exposing the state dir or other sandboxes, and never creates the container", async () => {
    const cases: Array<[Partial<SandboxSpec>, RegExp]> = [
      [{ binds: [{ hostPath: stateDir, containerPath: "/state", readOnly: true }] }, /state dir/],
      [{ binds: [{ hostPath: root, containerPath: "/up", readOnly: true }] }, /state dir/],
      [
        { binds: [{ hostPath: join(workspaceRoot, "rw"), containerPath: "/x", readOnly: true }] },
        /workspaceRoot/,
      ],
      [{ workspaceDir: stateDir, workspaceAccess: "rw" }, /state dir/],
      [
        { binds: [{ hostPath: agentWorkspace, containerPath: "/workspace/x", readOnly: true }] },
        /inside \/workspace/,
      ],
    ];
    for (const [overrides, message] of cases) {
      const refused = await backend.ensure(spec("refused", overrides));
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error).toMatch(message);
    }
    const allowed = unwrap(
      await backend.ensure(
        spec("bind-ok", {
          binds: [{ hostPath: agentWorkspace, containerPath: "/src", readOnly: true }],
        }),
      ),
    );
    expect((await exec(allowed, "cat /src/out.txt")).output).toBe("from-container\n");
    expect(containerExists(`${allowed.id}`)).toBe(true);
    const listed = unwrap(await backend.list({ workspaceRoots: [workspaceRoot] }));
    expect(listed.some((instance) => instance.scopeKey.endsWith(":refused"))).toBe(false);
  });

  it("a missing image is a clear error pointing at `pincer sandbox setup`", async () => {
    const missing = await backend.ensure(
      spec("no-image", { image: "pincer-sandbox-test:does-not-exist" }),
    );
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error).toMatch(
        /Docker image "pincer-sandbox-test:does-not-exist" is not present/,
      );
      expect(missing.error).toMatch(/pincer sandbox setup/);
    }
  });

  it("Docker unreachable (bogus DOCKER_HOST) is an error value, and nothing runs", async () => {
    const dead = createDockerBackend({
      env: { ...env, DOCKER_HOST: `unix://${join(root, "no-docker.sock")}` },
    });
    const available = await dead.available();
    expect(available.ok).toBe(false);
    if (!available.ok) expect(available.reason).toMatch(/^Docker is not running: /);
    const ensured = await dead.ensure(spec("dead"));
    expect(ensured.ok).toBe(false);
    if (!ensured.ok) expect(ensured.error).toMatch(/^Docker is not running: /);
    const listed = await dead.list({ workspaceRoots: [workspaceRoot] });
    expect(listed.ok).toBe(false);
  });

  it("Docker not installed (no docker on PATH) says so", async () => {
    const none = createDockerBackend({ env: { ...env, PATH: join(root, "empty-bin") } });
    const available = await none.available();
    expect(available.ok).toBe(false);
    if (!available.ok) expect(available.reason).toMatch(/Docker is not installed/);
  });
});
