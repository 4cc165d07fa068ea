// The bwrap backend for real (bubblewrap must be installed; under CI=true it is required): namespaces,
// mounts per access mode, setupCommand once per instance, recreation on a config change, list/remove.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/temp-cleanup.js";
import type { SandboxHandle, SandboxSpec } from "../backend.js";
import { sandboxConfigHash } from "../spec.js";
import { createBwrapBackend } from "./backend.js";

const HAS_BWRAP = spawnSync("bwrap", ["--version"]).status === 0;
if (!HAS_BWRAP) {
  if (process.env.CI === "true")
    throw new Error("bwrap is required under CI=true (apt-get install bubblewrap)");
  console.warn("\n*** SKIPPING bwrap backend tests: bubblewrap is not installed ***\n");
}

function specFor(root: string, patch: Partial<SandboxSpec> = {}): SandboxSpec {
  const base = {
    backend: "bwrap" as const,
    agentId: "fam",
    sessionKey: "agent:fam:main",
    scope: "agent" as const,
    scopeKey: "agent:fam",
    workspaceAccess: "rw" as const,
    workspaceDir: join(root, "ws"),
    workspaceRoot: join(root, "sandboxes"),
    binds: [],
    network: "none",
    env: { GREETING: "hola" },
    readOnlyRoot: true,
    capDrop: ["ALL"],
    image: "unused",
    ...patch,
  };
  return { ...base, configHash: sandboxConfigHash(base) };
}

function run(handle: SandboxHandle, command: string): { code: number | null; out: string } {
  const cmd = handle.command({ command, workdir: "/workspace" });
  const [file, ...args] = cmd.argv;
  const res = spawnSync(file ?? "false", args, { env: cmd.env, cwd: cmd.cwd, encoding: "utf8" });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe.skipIf(!HAS_BWRAP)("bwrap backend", () => {
  const backend = createBwrapBackend({ env: process.env });

  it("is available here", async () => {
    expect(await backend.available()).toMatchObject({ ok: true });
  });

  it("says clearly when the binary is missing", async () => {
    const missing = createBwrapBackend({
      env: { PATH: "/nonexistent", PINCER_BWRAP: "/no/bwrap" },
    });
    const res = await missing.available();
    expect(res).toEqual({
      ok: false,
      reason: expect.stringContaining(
        "bwrap not found: no executable bubblewrap /no/bwrap (PINCER_BWRAP)",
      ),
    });
  });

  it("isolates: own hostname, no network, only /workspace and the system dirs", async () => {
    const root = makeTempDir("pincer-bwrap-");
    mkdirSync(join(root, "ws"));
    writeFileSync(join(root, "secret"), "s3cret");
    const handle = await backend.ensure(specFor(root));
    if (!handle.ok) throw new Error(handle.error);
    const probe = run(
      handle.value,
      `hostname; echo "$GREETING $HOME"; pwd; cat ${join(root, "secret")} || echo no-secret; ` +
        "cat /sys/class/net/*/address 2>/dev/null | wc -l; echo hi > /workspace/f; touch /usr/x || echo ro-usr",
    );
    const lines = probe.out.split("\n");
    expect(lines[0]).toBe("pincer-sandbox");
    expect(lines[0]).not.toBe(spawnSync("hostname", { encoding: "utf8" }).stdout.trim());
    expect(lines[1]).toBe("hola /home/sandbox");
    expect(lines[2]).toBe("/workspace");
    expect(probe.out).toContain("no-secret");
    expect(probe.out).toContain("ro-usr");
    expect(readFileSync(join(root, "ws", "f"), "utf8")).toBe("hi\n");
    const net = run(
      handle.value,
      "ls /sys/class/net 2>/dev/null; cat /proc/net/dev | tail -n +3 | cut -d: -f1",
    );
    expect(
      net.out
        .trim()
        .split(/\s+/)
        .filter((n) => n && n !== "lo"),
    ).toEqual([]);
  });

  it('"ro" mounts the workspace read-only', async () => {
    const root = makeTempDir("pincer-bwrap-");
    mkdirSync(join(root, "ws"));
    const handle = await backend.ensure(specFor(root, { workspaceAccess: "ro" }));
    if (!handle.ok) throw new Error(handle.error);
    const res = run(handle.value, "echo x > /workspace/f");
    expect(res.code).not.toBe(0);
    expect(res.out).toContain("Read-only file system");
    expect(existsSync(join(root, "ws", "f"))).toBe(false);
  });

  it("runs setupCommand once per instance and again after a config change; list and remove", async () => {
    const root = makeTempDir("pincer-bwrap-");
    mkdirSync(join(root, "ws"));
    const spec = specFor(root, { setupCommand: "echo setup >> /workspace/setup.log" });
    const first = await backend.ensure(spec);
    const second = await backend.ensure(spec);
    if (!first.ok || !second.ok) throw new Error("ensure failed");
    expect([first.value.created, second.value.created]).toEqual([true, false]);
    expect(readFileSync(join(root, "ws", "setup.log"), "utf8")).toBe("setup\n");
    const changed = specFor(root, { setupCommand: "echo setup >> /workspace/setup.log", env: {} });
    const third = await backend.ensure(changed);
    expect(third.ok && third.value.created).toBe(true);
    expect(readFileSync(join(root, "ws", "setup.log"), "utf8")).toBe("setup\nsetup\n");
    const listed = await backend.list({ workspaceRoots: [join(root, "sandboxes")] });
    if (!listed.ok) throw new Error(listed.error);
    expect(listed.value.map((i) => [i.agentId, i.scopeKey, i.configHash])).toEqual([
      ["fam", "agent:fam", changed.configHash],
    ]);
    expect((await backend.remove(listed.value[0]!)).ok).toBe(true);
    const after = await backend.list({ workspaceRoots: [join(root, "sandboxes")] });
    expect(after.ok && after.value).toEqual([]);
    expect(existsSync(join(root, "ws", "setup.log"))).toBe(true);
  });

  it("a failing setupCommand is an error and leaves no instance", async () => {
    const root = makeTempDir("pincer-bwrap-");
    mkdirSync(join(root, "ws"));
    const res = await backend.ensure(specFor(root, { setupCommand: "echo broken; exit 3" }));
    expect(res).toEqual({ ok: false, error: expect.stringContaining("setupCommand failed") });
    expect(!res.ok && res.error).toContain("(exit 3): broken");
    const listed = await backend.list({ workspaceRoots: [join(root, "sandboxes")] });
    expect(listed.ok && listed.value).toEqual([]);
  });

  it("refuses what it cannot honour, naming the key", async () => {
    const root = makeTempDir("pincer-bwrap-");
    const res = await backend.ensure(specFor(root, { network: "bridge" }));
    expect(!res.ok && res.error).toContain('sandbox.docker.network is "bridge"');
  });
});
