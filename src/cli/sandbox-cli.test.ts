// The CLI and a configured sandbox: `config validate` accepts it quietly (the mode is honoured),
// `agents list` says where tools run, `sandbox explain` says why, `sandbox list | recreate` work
// across backends (bwrap here, for real).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../test/helpers/cli-sandbox.js";
import { resolveConfig } from "../config/resolve.js";
import { parseJson5 } from "../lib/json5.js";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { createBwrapBackend } from "../runtime/sandbox/bwrap/backend.js";
import { resolveSandboxSpec } from "../runtime/sandbox/spec.js";

const FAMILY = `{
  agents: {
    defaults: { sandbox: { mode: "non-main", backend: "bwrap" } },
    list: [
      { id: "main", default: true },
      { id: "work", sandbox: { mode: "off" } },
      { id: "family", sandbox: { mode: "all", scope: "agent", workspaceAccess: "ro" }, tools: { deny: ["browser"], sandbox: { tools: { deny: ["exec"] } } } },
    ],
  },
}
`;

const HAS_BWRAP = spawnSync("bwrap", ["--version"]).status === 0;

describe("sandbox mode in the CLI", () => {
  it("config validate accepts an honoured sandbox without warnings, and flags one that cannot be set up", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(FAMILY);
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.issues.filter((i: { message: string }) => i.message.includes("sandbox"))).toEqual(
      [],
    );
    sb.writeConfig(
      `{ agents: { defaults: { sandbox: { mode: "all", docker: { binds: ["${sb.stateDir}:/state"] } } } } }`,
    );
    const bad = await sb.run(["config", "validate"]);
    expect(bad.code).toBe(0);
    expect(bad.stdout).toContain("would expose the state dir");
  });

  it("agents list shows each agent's effective mode and where its tools run", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(FAMILY);
    const text = (await sb.run(["agents", "list"])).stdout;
    expect(text).toContain("- family [sandbox all]");
    expect(text).toContain(
      "sandbox    all — tools run in the sandbox in every session (agents.list[2].sandbox.mode; pincer sandbox explain)",
    );
    expect(text).toContain("outside the main session agent:main:main");
    expect(text).toContain("sandbox    off (tools run on the host, no isolation)");
    const json = JSON.parse((await sb.run(["agents", "list", "--json"])).stdout);
    expect(
      json.map((a: { id: string; sandbox: { hostTools: string } }) => [a.id, a.sandbox.hostTools]),
    ).toEqual([
      ["main", "sandboxed-outside-main-session"],
      ["work", "allowed"],
      ["family", "sandboxed"],
    ]);
  });

  it("sandbox explain names the deciding key of every setting and the sandbox tool policy", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(FAMILY);
    const res = await sb.run([
      "sandbox",
      "explain",
      "--session",
      "agent:family:telegram:group:1",
      "--json",
    ]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({
      agentId: "family",
      sessionKey: "agent:family:telegram:group:1",
      sandboxed: true,
      mode: { value: "all", source: "agents.list[2].sandbox.mode" },
      backend: { value: "bwrap", source: "agents.defaults.sandbox.backend" },
      scope: { value: "agent", source: "agents.list[2].sandbox.scope" },
      workspaceAccess: { value: "ro", source: "agents.list[2].sandbox.workspaceAccess" },
      scopeKey: "agent:family",
    });
    const exec = report.tools.find((t: { name: string }) => t.name === "exec");
    expect(exec.allowed).toBe(false);
    expect(exec.why).toContain('denied by agents.list[2].tools.sandbox.tools.deny ("exec")');
    const main = JSON.parse((await sb.run(["sandbox", "explain", "--json"])).stdout);
    expect(main).toMatchObject({
      agentId: "main",
      sessionKey: "agent:main:main",
      sandboxed: false,
    });
    expect(main.why).toContain('which mode "non-main" leaves on the host');
    const text = (await sb.run(["sandbox", "explain", "--agent", "family"])).stdout;
    expect(text).toContain('workspaceAccess "ro"  (agents.list[2].sandbox.workspaceAccess)');
  });

  it("recreate needs exactly one selector", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(FAMILY);
    const res = await sb.run(["sandbox", "recreate"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("pass exactly one of --agent ID, --session KEY or --all");
  });

  it.skipIf(!HAS_BWRAP)(
    "sandbox list shows a bwrap sandbox; recreate --agent removes it",
    async () => {
      const sb = createCliSandbox({ PATH: process.env.PATH ?? "/usr/bin:/bin" });
      sb.writeConfig(FAMILY);
      const paths = {
        home: sb.home,
        stateDir: sb.stateDir,
        configPath: sb.configPath,
        workspaceBase: sb.stateDir,
      };
      const cfg = resolveConfig({ config: parseJson5(FAMILY) as OpenClawConfig, paths });
      const spec = resolveSandboxSpec({ cfg, agentId: "family", sessionKey: "agent:family:main" });
      if (!spec.ok) throw new Error(spec.error);
      const made = await createBwrapBackend({ env: process.env }).ensure(spec.value);
      expect(made.ok).toBe(true);
      const listRun = await sb.run(["sandbox", "list", "--json"]);
      expect(listRun.stderr).toBe("");
      const listed = JSON.parse(listRun.stdout);
      expect(
        listed.sandboxes.map((b: { backend: string; scopeKey: string; current: boolean }) => [
          b.backend,
          b.scopeKey,
          b.current,
        ]),
      ).toEqual([["bwrap", "agent:family", true]]);
      const none = await sb.run(["sandbox", "recreate", "--agent", "work"]);
      expect(none.stdout).toContain("No matching sandbox.");
      const gone = await sb.run(["sandbox", "recreate", "--agent", "family"]);
      expect(gone.code).toBe(0);
      expect(gone.stdout).toContain("removed bwrap sandbox agent:family (agent family)");
      const after = JSON.parse((await sb.run(["sandbox", "list", "--json"])).stdout);
      expect(after.sandboxes).toEqual([]);
    },
  );
});
