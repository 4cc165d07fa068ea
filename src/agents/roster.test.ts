import { describe, expect, it } from "vitest";
import { resolveStatePaths } from "../config/paths.js";
import { listAgentEntries, listAgents, resolveAgent, resolveDefaultAgentId } from "./roster.js";

const home = "/home/u";
const paths = resolveStatePaths({ env: { HOME: home } });

describe("resolveStatePaths", () => {
  it("defaults to ~/.openclaw and its openclaw.json", () => {
    expect(paths).toEqual({
      home,
      stateDir: "/home/u/.openclaw",
      configPath: "/home/u/.openclaw/openclaw.json",
      workspaceBase: "/home/u/.openclaw",
    });
  });
  it("honours OPENCLAW_STATE_DIR and OPENCLAW_CONFIG_PATH", () => {
    const p = resolveStatePaths({
      env: { HOME: home, OPENCLAW_STATE_DIR: "/srv/oc", OPENCLAW_CONFIG_PATH: "~/cfg.json5" },
    });
    expect(p.stateDir).toBe("/srv/oc");
    expect(p.configPath).toBe("/home/u/cfg.json5");
    expect(p.workspaceBase).toBe("/srv/oc");
  });
  it("uses ~/.openclaw-<profile> for a profile, the flag winning over the env", () => {
    const p = resolveStatePaths({ env: { HOME: home, OPENCLAW_PROFILE: "dev" }, profile: "work" });
    expect(p.stateDir).toBe("/home/u/.openclaw-work");
    expect(p.configPath).toBe("/home/u/.openclaw-work/openclaw.json");
    expect(p.profile).toBe("work");
    expect(resolveStatePaths({ env: { HOME: home, OPENCLAW_PROFILE: "default" } }).stateDir).toBe(
      "/home/u/.openclaw",
    );
  });
});

describe("default agent", () => {
  it("is main with no roster", () => {
    expect(resolveDefaultAgentId({})).toBe("main");
    expect(listAgents({}, paths).map((a) => a.id)).toEqual(["main"]);
  });
  it("is the first entry with default: true", () => {
    const cfg = {
      agents: { list: [{ id: "a" }, { id: "b", default: true }, { id: "c", default: true }] },
    };
    expect(resolveDefaultAgentId(cfg)).toBe("b");
  });
  it("is the first entry when none is marked", () => {
    expect(resolveDefaultAgentId({ agents: { list: [{ id: "Work" }, { id: "home" }] } })).toBe(
      "work",
    );
  });
  it("reads agents.entries as an alias of agents.list, ids from keys", () => {
    const cfg = { agents: { entries: { ops: { name: "Ops" }, home: { default: true } } } };
    expect(listAgentEntries(cfg).map((e) => e.id)).toEqual(["ops", "home"]);
    expect(resolveDefaultAgentId(cfg)).toBe("home");
  });
});

describe("resolveAgent paths", () => {
  const cfg = {
    agents: {
      defaults: {
        model: { primary: "anthropic/claude-sonnet-4-5", fallbacks: ["openai/gpt-5.2"] },
      },
      list: [
        { id: "home", default: true },
        {
          id: "work",
          workspace: "~/ws/work",
          agentDir: "/data/work-agent",
          model: "anthropic/claude-opus-4-5",
        },
        { id: "family" },
      ],
    },
  };
  it("gives the default agent ~/.openclaw/workspace", () => {
    const home0 = resolveAgent({ cfg, paths, agentId: "home" });
    expect(home0).toMatchObject({
      id: "home",
      isDefault: true,
      workspace: "/home/u/.openclaw/workspace",
      agentDir: "/home/u/.openclaw/agents/home/agent",
      sessionsDir: "/home/u/.openclaw/agents/home/sessions",
      sessionStorePath: "/home/u/.openclaw/agents/home/sessions/sessions.json",
      model: "anthropic/claude-sonnet-4-5",
      fallbacks: ["openai/gpt-5.2"],
    });
  });
  it("gives other agents workspace-<id> and expands ~ in configured paths", () => {
    expect(resolveAgent({ cfg, paths, agentId: "family" }).workspace).toBe(
      "/home/u/.openclaw/workspace-family",
    );
    const work = resolveAgent({ cfg, paths, agentId: "work" });
    expect(work).toMatchObject({
      isDefault: false,
      workspace: "/home/u/ws/work",
      agentDir: "/data/work-agent",
      model: "anthropic/claude-opus-4-5",
      fallbacks: [],
    });
  });
  it("uses workspace-<profile> for the default agent under a profile", () => {
    const p = resolveStatePaths({ env: { HOME: home }, profile: "lab" });
    const main = resolveAgent({ cfg: {}, paths: p, agentId: "main" });
    expect(main.workspace).toBe("/home/u/.openclaw/workspace-lab");
    expect(main.agentDir).toBe("/home/u/.openclaw-lab/agents/main/agent");
  });
  it("honours agents.defaults.workspace for the default agent only", () => {
    const c = { agents: { defaults: { workspace: "~/mine" }, list: [{ id: "a" }, { id: "b" }] } };
    expect(resolveAgent({ cfg: c, paths, agentId: "a" }).workspace).toBe("/home/u/mine");
    expect(resolveAgent({ cfg: c, paths, agentId: "b" }).workspace).toBe(
      "/home/u/.openclaw/workspace-b",
    );
  });
  it("puts sessions where session.store says, per agent", () => {
    const c = {
      session: { store: "/var/oc/{agentId}/sessions.json" },
      agents: { list: [{ id: "a" }] },
    };
    const a = resolveAgent({ cfg: c, paths, agentId: "a" });
    expect(a.sessionStorePath).toBe("/var/oc/a/sessions.json");
    expect(a.sessionsDir).toBe("/var/oc/a");
  });
});

describe("legacy top-level agent block", () => {
  it("acts as agents.defaults, which wins over it", () => {
    const cfg = { agent: { workspace: "~/legacy", model: "a/b" } };
    expect(resolveAgent({ cfg, paths, agentId: "main" })).toMatchObject({
      workspace: "/home/u/legacy",
      model: "a/b",
    });
    const both = { agent: { workspace: "~/legacy" }, agents: { defaults: { workspace: "~/new" } } };
    expect(resolveAgent({ cfg: both, paths, agentId: "main" }).workspace).toBe("/home/u/new");
  });
});
