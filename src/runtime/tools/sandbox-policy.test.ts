import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { resolveConfig, resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import type { SandboxBackend, SandboxSpec } from "../sandbox/backend.js";
import type { SandboxBackendRegistry } from "../sandbox/registry.js";
import { invokeTool } from "./invoke.js";
import { ProcessRegistry } from "./process-registry.js";
import {
  listSandboxedAgents,
  resolveAgentSandboxMode,
  resolveSessionSandbox,
  sandboxNotice,
} from "./sandbox-policy.js";
import type { SessionToolsHost } from "./session-tools-contract.js";
import { buildToolset } from "./toolset.js";

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const host: SessionToolsHost = {
  status: () => ({
    agentId: "main",
    sessionKey: "agent:main:main",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  }),
  list: () => [],
  history: () => [],
  send: async () => ({ status: "accepted" }),
  spawn: async () => ({ status: "accepted", childSessionKey: "agent:main:subagent:x" }),
};

function text(outcome: { content: Array<{ type: string; text?: string }> }): string {
  return outcome.content.map((block) => block.text ?? "").join("\n");
}

describe("resolveAgentSandboxMode", () => {
  const family: OpenClawConfig = {
    agents: {
      defaults: { sandbox: { mode: "non-main" } },
      list: [
        { id: "main" },
        { id: "work", sandbox: { mode: "off" } },
        { id: "family", sandbox: { mode: "all", scope: "agent" } },
        { id: "kids", sandbox: { scope: "session" } },
      ],
    },
  };

  it("takes the agent's own mode over agents.defaults and names the deciding key", () => {
    expect(resolveAgentSandboxMode(resolveRoster(family), "family")).toMatchObject({
      mode: "all",
      source: "agents.list[2].sandbox.mode",
    });
    expect(resolveAgentSandboxMode(resolveRoster(family), "work")).toMatchObject({
      mode: "off",
      source: "agents.list[1].sandbox.mode",
    });
    // A sandbox block without `mode` inherits the defaults' mode.
    expect(resolveAgentSandboxMode(resolveRoster(family), "kids")).toMatchObject({
      mode: "non-main",
      source: "agents.defaults.sandbox.mode",
    });
  });

  it("is off with no setting, reads agents.entries and the legacy agent block", () => {
    expect(resolveAgentSandboxMode(resolveRoster({}), "main")).toEqual({
      agentId: "main",
      mode: "off",
      mainSessionKey: "agent:main:main",
    });
    const entries: OpenClawConfig = { agents: { entries: { Fam: { sandbox: { mode: "all" } } } } };
    expect(resolveAgentSandboxMode(resolveRoster(entries), "fam")).toMatchObject({
      mode: "all",
      source: "agents.entries.Fam.sandbox.mode",
    });
    const legacy: OpenClawConfig = { agent: { sandbox: { mode: "all" } } };
    expect(resolveAgentSandboxMode(resolveRoster(legacy), "main").source).toBe(
      "agent.sandbox.mode",
    );
  });

  it("fails closed on a mode it does not know (an unvalidated config)", () => {
    const odd = { agents: { list: [{ id: "a", sandbox: { mode: "sometimes" } }] } };
    expect(resolveAgentSandboxMode(resolveRoster(odd as OpenClawConfig), "a").mode).toBe("all");
    const weird = { agents: { list: [null, 7, { id: "b", sandbox: { mode: 3 } }] } };
    expect(
      resolveAgentSandboxMode(resolveRoster(weird as unknown as OpenClawConfig), "b").mode,
    ).toBe("all");
  });
});

describe("resolveSessionSandbox", () => {
  const cfg: OpenClawConfig = { agents: { list: [{ id: "fam", sandbox: { mode: "non-main" } }] } };

  it('"non-main" leaves only the agent\'s main session (and its alias) on the host', () => {
    const of = (sessionKey?: string) =>
      resolveSessionSandbox({
        cfg: resolveRoster(cfg),
        agentId: "fam",
        ...(sessionKey ? { sessionKey } : {}),
      });
    expect(of("agent:fam:main").sandboxed).toBe(false);
    expect(of("AGENT:FAM:MAIN").sandboxed).toBe(false);
    expect(of("main").sandboxed).toBe(false);
    expect(of("agent:fam:telegram:group:-100123").sandboxed).toBe(true);
    expect(of("agent:fam:subagent:abc").sandboxed).toBe(true);
    // Another agent's main session is not this agent's main session.
    expect(of("agent:other:main").sandboxed).toBe(true);
    // No session key: fail closed.
    expect(of(undefined).sandboxed).toBe(true);
  });

  it("follows session.mainKey", () => {
    const keyed: OpenClawConfig = { ...cfg, session: { mainKey: "home" } };
    const of = (sessionKey: string) =>
      resolveSessionSandbox({ cfg: resolveRoster(keyed), agentId: "fam", sessionKey });
    expect(of("agent:fam:home").sandboxed).toBe(false);
    expect(of("agent:fam:main").sandboxed).toBe(true);
  });

  it('"all" sandboxes the main session too; "off" nothing', () => {
    const all: OpenClawConfig = { agents: { defaults: { sandbox: { mode: "all" } } } };
    expect(
      resolveSessionSandbox({
        cfg: resolveRoster(all),
        agentId: "main",
        sessionKey: "agent:main:main",
      }),
    ).toMatchObject({ sandboxed: true, source: "agents.defaults.sandbox.mode" });
    expect(resolveSessionSandbox({ cfg: resolveRoster({}), agentId: "main" }).sandboxed).toBe(
      false,
    );
  });
});

describe("listSandboxedAgents", () => {
  it("lists each affected agent once (the implicit main agent too), with a notice naming the key", () => {
    const defaults: OpenClawConfig = { agents: { defaults: { sandbox: { mode: "all" } } } };
    const listed = listSandboxedAgents(resolveRoster(defaults));
    expect(listed.map((agent) => agent.agentId)).toEqual(["main"]);
    expect(sandboxNotice(listed[0]!, "bwrap")).toContain(
      'agents.defaults.sandbox.mode is "all": agent "main"\'s tools run in a bwrap sandbox',
    );
    const mixed: OpenClawConfig = {
      agents: {
        list: [
          { id: "a" },
          { id: "b", sandbox: { mode: "non-main" } },
          { id: "c", sandbox: { mode: "all" } },
          { id: "C", sandbox: { mode: "all" } },
        ],
      },
    };
    const names = listSandboxedAgents(resolveRoster(mixed)).map((agent) => [
      agent.agentId,
      agent.source,
    ]);
    expect(names).toEqual([
      ["b", "agents.list[1].sandbox.mode"],
      ["c", "agents.list[2].sandbox.mode"],
    ]);
    expect(sandboxNotice(listSandboxedAgents(resolveRoster(mixed))[0]!, "docker")).toContain(
      "except its main session agent:b:main",
    );
  });
});

/** A backend that runs nothing: its "sandbox" echoes what it was asked to run (proves the routing). */
function echoBackend(state: { available: boolean; specs: SandboxSpec[] }): SandboxBackendRegistry {
  const backend: SandboxBackend = {
    id: "bwrap",
    available: async () =>
      state.available ? { ok: true } : { ok: false, reason: "bwrap not found: test says so." },
    async ensure(spec) {
      state.specs.push(spec);
      return {
        ok: true,
        value: {
          id: "echo",
          spec,
          created: true,
          command: (run) => ({
            argv: ["/bin/echo", "in-sandbox", run.workdir, run.command],
            env: {},
            cwd: "/",
          }),
        },
      };
    },
    list: async () => ({ ok: true, value: [] }),
    remove: async () => ({ ok: true, value: undefined }),
  };
  return { bwrap: () => backend };
}

describe("buildToolset in a sandboxed session", () => {
  function sandboxed(cfg: object, sessionKey: string, opts: { available?: boolean } = {}) {
    const stateDir = makeTempDir("pincer-sandbox-state-");
    const workspaceDir = join(stateDir, "workspace-fam");
    mkdirSync(workspaceDir);
    const outside = makeTempDir("pincer-outside-");
    const jobs = new ProcessRegistry();
    const state = { available: opts.available ?? true, specs: [] as SandboxSpec[] };
    cleanups.push(async () => {
      await jobs.stopAll();
      rmSync(stateDir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    });
    const paths = {
      home: outside,
      stateDir,
      configPath: join(stateDir, "c.json"),
      workspaceBase: stateDir,
    };
    const tools = buildToolset({
      cfg: resolveConfig({ config: cfg as OpenClawConfig, paths }),
      agentId: "fam",
      sessionKey,
      workspaceDir,
      host,
      jobs,
      signal: new AbortController().signal,
      sandboxBackends: echoBackend(state),
    });
    const byName = (name: string) => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool;
    };
    return { tools, byName, workspaceDir, outside, stateDir, state };
  }

  const rw = {
    tools: { exec: { applyPatch: true } },
    agents: {
      list: [{ id: "fam", sandbox: { mode: "all", backend: "bwrap", workspaceAccess: "rw" } }],
    },
  };

  it("runs exec through the backend (in /workspace), never the host shell", async () => {
    const { byName, outside, state } = sandboxed(rw, "agent:fam:main");
    const marker = join(outside, "ran");
    const outcome = await invokeTool({
      tool: byName("exec"),
      args: { command: `touch ${marker}` },
    });
    expect(outcome.isError).toBe(false);
    expect(text(outcome)).toBe(`in-sandbox /workspace touch ${marker}\n`);
    expect(existsSync(marker)).toBe(false);
    expect(state.specs[0]?.scopeKey).toBe("session:agent:fam:main");
    const sub = await invokeTool({ tool: byName("exec"), args: { command: "ls", workdir: "." } });
    expect(text(sub)).toContain("in-sandbox /workspace ls");
  });

  it("keeps file tools inside /workspace: rw writes land in the agent workspace", async () => {
    const { byName, workspaceDir, outside } = sandboxed(rw, "agent:fam:main");
    const wrote = await invokeTool({
      tool: byName("write"),
      args: { path: "/workspace/notes/a.txt", content: "hi" },
    });
    expect(text(wrote)).toBe("Wrote 2 bytes to /workspace/notes/a.txt.");
    expect(readFileSync(join(workspaceDir, "notes/a.txt"), "utf8")).toBe("hi");
    const read = await invokeTool({ tool: byName("read"), args: { path: "notes/a.txt" } });
    expect(text(read)).toContain("hi");
    const secret = join(outside, "gateway.token");
    writeFileSync(secret, "s3cret-token");
    for (const [name, args] of [
      ["read", { path: secret }],
      ["write", { path: join(outside, "w.txt"), content: "x" }],
      ["edit", { path: secret, oldText: "s3cret", newText: "stolen" }],
      ["read", { path: "../../etc/passwd" }],
      ["read", { path: "~/.ssh/id_rsa" }],
    ] as const) {
      const outcome = await invokeTool({ tool: byName(name), args });
      expect(outcome.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(outcome)).toContain("outside the sandbox workspace /workspace");
    }
    expect(readFileSync(secret, "utf8")).toBe("s3cret-token");
    expect(existsSync(join(outside, "w.txt"))).toBe(false);
  });

  it('"ro" refuses writes naming the key; reads still work', async () => {
    const ro = {
      tools: { exec: { applyPatch: true } },
      agents: {
        list: [{ id: "fam", sandbox: { mode: "all", backend: "bwrap", workspaceAccess: "ro" } }],
      },
    };
    const { byName, workspaceDir } = sandboxed(ro, "agent:fam:main");
    writeFileSync(join(workspaceDir, "AGENTS.md"), "rules");
    expect(text(await invokeTool({ tool: byName("read"), args: { path: "AGENTS.md" } }))).toContain(
      "rules",
    );
    for (const [name, args] of [
      ["write", { path: "x.txt", content: "x" }],
      ["edit", { path: "AGENTS.md", oldText: "rules", newText: "none" }],
      ["apply_patch", { input: "*** Begin Patch\n*** Add File: p.txt\n+x\n*** End Patch" }],
    ] as const) {
      const outcome = await invokeTool({ tool: byName(name), args });
      expect(outcome.isError, name).toBe(true);
      expect(text(outcome)).toContain(
        '(agents.list[0].sandbox.workspaceAccess is "ro"); nothing was written.',
      );
    }
    expect(readFileSync(join(workspaceDir, "AGENTS.md"), "utf8")).toBe("rules");
    expect(existsSync(join(workspaceDir, "x.txt"))).toBe(false);
  });

  it('"none" works in a sandbox workspace under workspaceRoot, seeded with the bootstrap files', async () => {
    const none = { agents: { list: [{ id: "fam", sandbox: { mode: "all", backend: "bwrap" } }] } };
    const { byName, workspaceDir, stateDir, state } = sandboxed(none, "agent:fam:main");
    writeFileSync(join(workspaceDir, "SOUL.md"), "be kind");
    writeFileSync(join(workspaceDir, "private.txt"), "not copied");
    await invokeTool({ tool: byName("write"), args: { path: "out.txt", content: "x" } });
    const dir = state.specs[0]?.workspaceDir ?? "";
    expect(dir.startsWith(join(stateDir, "sandboxes"))).toBe(true);
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("x");
    expect(readFileSync(join(dir, "SOUL.md"), "utf8")).toBe("be kind");
    expect(existsSync(join(dir, "private.txt"))).toBe(false);
    expect(existsSync(join(workspaceDir, "out.txt"))).toBe(false);
  });

  it("an unavailable backend is a clear error for exec and the file tools; nothing runs", async () => {
    const { byName, workspaceDir, outside } = sandboxed(rw, "agent:fam:main", { available: false });
    const marker = join(outside, "ran");
    for (const [name, args] of [
      ["exec", { command: `touch ${marker}` }],
      ["write", { path: "w.txt", content: "x" }],
    ] as const) {
      const outcome = await invokeTool({ tool: byName(name), args });
      expect(outcome.isError, name).toBe(true);
      expect(text(outcome)).toContain("The sandbox is unavailable: bwrap not found: test says so.");
      expect(text(outcome)).toContain("never falls back to the host");
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(workspaceDir, "w.txt"))).toBe(false);
  });

  it("a bind that would expose the state dir refuses the sandboxed tools", async () => {
    const cfg = {
      agents: {
        list: [
          {
            id: "fam",
            sandbox: { mode: "all", backend: "bwrap", docker: { binds: ["/:/host:ro"] } },
          },
        ],
      },
    };
    const { byName } = sandboxed(cfg, "agent:fam:main");
    const outcome = await invokeTool({ tool: byName("exec"), args: { command: "ls /host" } });
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toContain("would expose the state dir");
  });

  it("applies tools.sandbox.tools (agent's own replaces the global one) only when sandboxed", () => {
    const cfg = {
      tools: { sandbox: { tools: { deny: ["exec"] } } },
      agents: {
        list: [
          { id: "fam", sandbox: { mode: "non-main", backend: "bwrap" } },
          {
            id: "other",
            sandbox: { mode: "all" },
            tools: { sandbox: { tools: { allow: ["read"] } } },
          },
        ],
      },
    };
    const names = (key: string) => sandboxed(cfg, key).tools.map((t) => t.name);
    expect(names("agent:fam:main")).toContain("exec");
    expect(names("agent:fam:telegram:group:1")).not.toContain("exec");
    expect(names("agent:fam:telegram:group:1")).toContain("read");
  });

  it("keeps the session tools, which never reach the host", async () => {
    const { byName } = sandboxed(rw, "agent:fam:main");
    const outcome = await invokeTool({ tool: byName("session_status"), args: {} });
    expect(outcome.isError).toBe(false);
  });

  it('"non-main" runs host tools in the main session only', async () => {
    const nonMain: OpenClawConfig = {
      agents: { list: [{ id: "fam", sandbox: { mode: "non-main", backend: "bwrap" } }] },
    };
    const main = sandboxed(nonMain, "agent:fam:main");
    const ran = await invokeTool({ tool: main.byName("exec"), args: { command: "echo hi" } });
    expect(ran.isError).toBe(false);
    expect(text(ran)).toBe("hi\n");
    const group = sandboxed(nonMain, "agent:fam:telegram:group:-1001");
    const boxed = await invokeTool({ tool: group.byName("exec"), args: { command: "echo hi" } });
    expect(text(boxed)).toBe("in-sandbox /workspace echo hi\n");
  });

  it("lets session tools hand work only to sessions that are sandboxed too", async () => {
    const cfg: OpenClawConfig = {
      agents: {
        list: [
          { id: "fam", sandbox: { mode: "non-main" }, subagents: { allowAgents: ["*"] } },
          { id: "free" },
        ],
      },
    };
    const group = sandboxed(cfg, "agent:fam:telegram:group:-1001");
    const send = (sessionKey: string) =>
      invokeTool({ tool: group.byName("sessions_send"), args: { sessionKey, message: "run ls" } });
    const toMain = await send("agent:fam:main");
    expect(toMain.isError).toBe(true);
    expect(text(toMain)).toContain(
      'agents.list[0].sandbox.mode is "non-main": this sandboxed session cannot hand work to agent:fam:main',
    );
    expect((await send("main")).isError).toBe(true);
    expect((await send("agent:fam:telegram:group:-1002")).isError).toBe(false);
    const spawn = (agentId?: string) =>
      invokeTool({
        tool: group.byName("sessions_spawn"),
        args: { task: "cat the token", ...(agentId ? { agentId } : {}) },
      });
    expect((await spawn()).isError).toBe(false);
    const toFree = await spawn("free");
    expect(toFree.isError).toBe(true);
    expect(text(toFree)).toContain('cannot hand work to a sub-agent of "free"');
  });
});
