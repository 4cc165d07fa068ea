// The resolved config: legacy `agent` folded under `agents.defaults` (defaults win, deep), the
// `agents.entries` alias folded into one ordered `agents.list`, ids normalized (first of a repeat
// kept), built-in defaults applied (timeout 600, 0 = none, bootstrap caps), every path resolved.
import { describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../protocol/config/index.js";
import { resolveStatePaths } from "./paths.js";
import {
  agentKeyPath,
  DEFAULT_RUN_TIMEOUT_SECONDS,
  defaultsKeyPath,
  findAgent,
  listAgentIds,
  lookupAgent,
  resolveConfig,
} from "./resolve.js";

const home = "/home/u";
const paths = resolveStatePaths({ env: { HOME: home } });
const resolve = (config: unknown) => resolveConfig({ config: config as OpenClawConfig, paths });

describe("the legacy top-level agent block", () => {
  const resolved = resolve({
    agent: {
      workspace: "~/legacy-ws",
      timeoutSeconds: 30,
      model: "legacy/model",
      sandbox: { mode: "all", scope: "agent" },
      skipBootstrap: true,
    },
    agents: { defaults: { model: "modern/model", sandbox: { scope: "session" } } },
  });

  it("is folded under agents.defaults: defaults win per key, at every depth", () => {
    expect(resolved.defaults).toMatchObject({
      workspace: "~/legacy-ws",
      timeoutSeconds: 30,
      model: "modern/model",
      sandbox: { mode: "all", scope: "session" },
      skipBootstrap: true,
    });
    expect(resolved.config).not.toHaveProperty("agent");
    expect(resolved.config.agents?.defaults).toBe(resolved.defaults);
  });

  it("applies to the agents (timeout, workspace, bootstrap) and keeps its config paths", () => {
    const main = lookupAgent(resolved, "main");
    expect(main.timeoutSeconds).toBe(30);
    expect(main.workspace).toBe("/home/u/legacy-ws");
    expect(main.skipBootstrap).toBe(true);
    expect(main.model).toBe("modern/model");
    expect(defaultsKeyPath(resolved, "timeoutSeconds")).toEqual(["agent", "timeoutSeconds"]);
    expect(defaultsKeyPath(resolved, "model")).toEqual(["agents", "defaults", "model"]);
  });
});

describe("legacy keys that moved elsewhere", () => {
  it("puts agent.tools, elevated and bash under tools; modelFallbacks under model", () => {
    const resolved = resolve({
      agent: {
        model: "legacy/primary",
        modelFallbacks: ["legacy/fallback"],
        tools: { deny: ["exec"] },
        elevated: { enabled: false },
        bash: { timeoutSec: 5 },
        sandbox: { mode: "off", tools: { allow: ["read"] } },
      },
      tools: { deny: ["write"], exec: { pathPrepend: ["/opt/bin"] } },
    });
    expect(resolved.config.tools).toEqual({
      deny: ["write"],
      exec: { pathPrepend: ["/opt/bin"], timeoutSec: 5 },
      elevated: { enabled: false },
      sandbox: { tools: { allow: ["read"] } },
    });
    expect(resolved.defaults.model).toEqual({
      primary: "legacy/primary",
      fallbacks: ["legacy/fallback"],
    });
    expect(resolved.defaults.sandbox).toEqual({ mode: "off" });
    expect(resolved.defaults).not.toHaveProperty("bash");
    expect(lookupAgent(resolved, "main").fallbacks).toEqual(["legacy/fallback"]);
  });

  it("fills a defaults model object's missing primary from a legacy string model", () => {
    const resolved = resolve({
      agent: { model: "legacy/primary" },
      agents: { defaults: { model: { fallbacks: ["modern/fallback"] } } },
    });
    expect(lookupAgent(resolved, "main")).toMatchObject({
      model: "legacy/primary",
      fallbacks: ["modern/fallback"],
    });
  });
});

describe("the roster", () => {
  it("folds agents.entries (keyed by id) into one ordered agents.list with normalized ids", () => {
    const resolved = resolve({
      agents: {
        entries: { Family: { workspace: "/f" }, ops: { id: "Ops Team", default: true } },
        list: [{ id: "ignored" }],
      },
    });
    expect(listAgentIds(resolved)).toEqual(["family", "ops-team"]);
    expect(resolved.config.agents?.list?.map((entry) => entry.id)).toEqual(["family", "ops-team"]);
    expect(resolved.config.agents).not.toHaveProperty("entries");
    expect(resolved.defaultAgentId).toBe("ops-team");
    expect(resolved.rosterKey).toBe("entries");
    const family = findAgent(resolved, "FAMILY");
    expect(family?.source).toEqual(["agents", "entries", "Family"]);
    expect(agentKeyPath(resolved, family!, "tools")).toBe("agents.entries.Family.tools");
    expect(family?.workspace).toBe("/f");
  });

  it("normalizes list ids, keeps the first of a repeated id and skips malformed entries", () => {
    const resolved = resolve({
      agents: {
        list: [{ id: "Work" }, null, { id: "work", workspace: "/dup" }, { id: "home" }],
      },
    });
    expect(resolved.agents.map((agent) => [agent.id, agent.index, agent.source])).toEqual([
      ["work", 0, ["agents", "list", 0]],
      ["home", 1, ["agents", "list", 3]],
    ]);
    expect(findAgent(resolved, "work")?.workspace).toBe("/home/u/.openclaw/workspace");
    expect(resolved.defaultAgentId).toBe("work");
  });

  it("is the implicit main when nothing is configured; an unknown id gets defaults only", () => {
    const resolved = resolve({});
    expect(resolved.implicit).toBe(true);
    expect(resolved.agents.map((agent) => agent.id)).toEqual(["main"]);
    expect(findAgent(resolved, "ghost")).toBeUndefined();
    expect(lookupAgent(resolved, "Ghost")).toMatchObject({ id: "ghost", index: -1, source: [] });
  });

  it("never throws on odd shapes (it runs on configs that failed validation)", () => {
    for (const value of [null, 7, "x", { agents: 3 }, { agents: { list: "no" } }, { agent: [] }]) {
      expect(() => resolve(value)).not.toThrow();
      expect(listAgentIds(resolve(value))).toEqual(["main"]);
    }
  });

  it("is idempotent: resolving its own config gives the same roster and settings", () => {
    const once = resolve({
      agent: { timeoutSeconds: 5 },
      agents: { entries: { a: { maxConcurrent: 2 } }, defaults: { model: "x/y" } },
    });
    const twice = resolve(once.config);
    const view = (r: typeof once) =>
      r.agents.map(({ id, timeoutSeconds, maxConcurrent, model, workspace }) => ({
        id,
        timeoutSeconds,
        maxConcurrent,
        model,
        workspace,
      }));
    expect(view(twice)).toEqual(view(once));
  });
});

describe("effective settings", () => {
  it("applies the built-in defaults", () => {
    const main = lookupAgent(resolve({}), "main");
    expect(main).toMatchObject({
      timeoutSeconds: DEFAULT_RUN_TIMEOUT_SECONDS,
      skipBootstrap: false,
      bootstrapMaxChars: 20_000,
      bootstrapTotalMaxChars: 150_000,
      fallbacks: [],
    });
    expect(main.maxConcurrent).toBeUndefined();
    expect(DEFAULT_RUN_TIMEOUT_SECONDS).toBe(600);
  });

  it("takes an entry's timeoutSeconds and maxConcurrent over the defaults; 0 means no timeout", () => {
    const resolved = resolve({
      agents: {
        defaults: { timeoutSeconds: 0, maxConcurrent: 8, bootstrapMaxChars: 100 },
        list: [
          { id: "a" },
          { id: "b", timeoutSeconds: 2, maxConcurrent: 1, bootstrapMaxChars: -5 },
          { id: "c", timeoutSeconds: -1, maxConcurrent: 0 },
        ],
      },
    });
    const [a, b, c] = resolved.agents;
    expect([a?.timeoutSeconds, b?.timeoutSeconds, c?.timeoutSeconds]).toEqual([0, 2, 0]);
    // agents.defaults.maxConcurrent is the global cap, not a per-agent one.
    expect([a?.maxConcurrent, b?.maxConcurrent, c?.maxConcurrent]).toEqual([
      undefined,
      1,
      undefined,
    ]);
    expect([a?.bootstrapMaxChars, b?.bootstrapMaxChars]).toEqual([100, 100]);
  });

  it("resolves the model from the entry, else the defaults", () => {
    const resolved = resolve({
      agents: {
        defaults: { model: { primary: "p/one", fallbacks: ["p/two"] } },
        list: [{ id: "a" }, { id: "b", model: "q/solo" }],
      },
    });
    expect(resolved.agents.map((agent) => [agent.model, agent.fallbacks])).toEqual([
      ["p/one", ["p/two"]],
      ["q/solo", []],
    ]);
  });
});

describe("paths", () => {
  it("gives the default agent the shared workspace and the others their own", () => {
    const resolved = resolve({
      agents: { defaults: { workspace: "~/shared" }, list: [{ id: "main" }, { id: "ops" }] },
    });
    const [main, ops] = resolved.agents;
    expect(main).toMatchObject({
      isDefault: true,
      workspace: "/home/u/shared",
      agentDir: "/home/u/.openclaw/agents/main/agent",
      sessionsDir: "/home/u/.openclaw/agents/main/sessions",
      sessionStorePath: "/home/u/.openclaw/agents/main/sessions/sessions.json",
    });
    expect(ops).toMatchObject({
      isDefault: false,
      workspace: "/home/u/.openclaw/workspace-ops",
      agentDir: "/home/u/.openclaw/agents/ops/agent",
    });
  });

  it("honours session.store with {agentId}, an entry's agentDir and the profile suffix", () => {
    const profiled = resolveStatePaths({ env: { HOME: home }, profile: "dev" });
    const resolved = resolveConfig({
      config: {
        session: { store: "~/stores/{agentId}/sessions.json" },
        agents: { list: [{ id: "main", agentDir: "~/dirs/main" }] },
      },
      paths: profiled,
    });
    expect(resolved.agents[0]).toMatchObject({
      workspace: "/home/u/.openclaw/workspace-dev",
      agentDir: "/home/u/dirs/main",
      sessionStorePath: "/home/u/stores/main/sessions.json",
      sessionsDir: "/home/u/stores/main",
    });
  });
});
