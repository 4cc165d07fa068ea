import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { invokeTool } from "./invoke.js";
import { ProcessRegistry } from "./process-registry.js";
import {
  listSandboxedAgents,
  resolveAgentSandboxMode,
  resolveSessionSandbox,
  sandboxWarning,
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
  it("lists each affected agent once (the implicit main agent too), with a warning naming the key", () => {
    const defaults: OpenClawConfig = { agents: { defaults: { sandbox: { mode: "all" } } } };
    const listed = listSandboxedAgents(resolveRoster(defaults));
    expect(listed.map((agent) => agent.agentId)).toEqual(["main"]);
    expect(sandboxWarning(listed[0]!)).toContain('agents.defaults.sandbox.mode is "all"');
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
    expect(sandboxWarning(listSandboxedAgents(resolveRoster(mixed))[0]!)).toContain(
      "except its main session agent:b:main",
    );
  });
});

describe("buildToolset in a sandboxed session", () => {
  function sandboxed(cfg: object, sessionKey: string) {
    const workspaceDir = makeTempDir("pincer-sandbox-");
    const outside = makeTempDir("pincer-outside-");
    const jobs = new ProcessRegistry();
    cleanups.push(async () => {
      await jobs.stopAll();
      rmSync(workspaceDir, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    });
    const tools = buildToolset({
      cfg: resolveRoster(cfg),
      agentId: "fam",
      sessionKey,
      workspaceDir,
      host,
      jobs,
      signal: new AbortController().signal,
    });
    const byName = (name: string) => {
      const tool = tools.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return tool;
    };
    return { tools, byName, workspaceDir, outside };
  }

  const all = {
    tools: { exec: { applyPatch: true } },
    agents: { list: [{ id: "fam", sandbox: { mode: "all" } }] },
  };

  it("refuses every host tool with an error naming the setting, and runs nothing", async () => {
    const { byName, workspaceDir, outside } = sandboxed(all, "agent:fam:main");
    const secret = join(outside, "gateway.token");
    writeFileSync(secret, "s3cret-token");
    const marker = join(outside, "ran");
    const calls: Array<[string, Record<string, unknown>]> = [
      ["exec", { command: `touch ${marker}` }],
      ["process", { action: "list" }],
      ["read", { path: secret }],
      ["write", { path: join(workspaceDir, "w.txt"), content: "x" }],
      ["edit", { path: secret, oldText: "s3cret", newText: "stolen" }],
      ["apply_patch", { input: "*** Begin Patch\n*** Add File: p.txt\n+x\n*** End Patch" }],
    ];
    for (const [name, args] of calls) {
      const outcome = await invokeTool({ tool: byName(name), args });
      expect(outcome.isError, name).toBe(true);
      expect(text(outcome)).toBe(
        `agents.list[0].sandbox.mode is "all": sandboxed tools are not available yet in Pincer; ${name} refused. Nothing was run.`,
      );
    }
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(workspaceDir, "w.txt"))).toBe(false);
    expect(existsSync(join(workspaceDir, "p.txt"))).toBe(false);
    expect(readFileSync(secret, "utf8")).toBe("s3cret-token");
  });

  it("keeps the session tools, which never reach the host", async () => {
    const { byName } = sandboxed(all, "agent:fam:main");
    const outcome = await invokeTool({ tool: byName("session_status"), args: {} });
    expect(outcome.isError).toBe(false);
  });

  it('"non-main" runs host tools in the main session only', async () => {
    const nonMain: OpenClawConfig = {
      agents: { list: [{ id: "fam", sandbox: { mode: "non-main" } }] },
    };
    const main = sandboxed(nonMain, "agent:fam:main");
    const ran = await invokeTool({ tool: main.byName("exec"), args: { command: "echo hi" } });
    expect(ran.isError).toBe(false);
    expect(text(ran)).toContain("hi");
    const group = sandboxed(nonMain, "agent:fam:telegram:group:-1001");
    const marker = join(group.outside, "ran");
    const refused = await invokeTool({
      tool: group.byName("exec"),
      args: { command: `touch ${marker}` },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('agents.list[0].sandbox.mode is "non-main"');
    expect(existsSync(marker)).toBe(false);
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
