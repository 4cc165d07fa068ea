import { describe, expect, it } from "vitest";
import { resolveRoster } from "../../config/resolve.js";
import type { OpenClawConfig } from "../../protocol/config/index.js";
import { PINCER_TOOL_NAMES, TOOL_GROUPS, TOOL_PROFILES } from "./catalog.js";
import { resolveToolSettings } from "./config.js";
import { resolveToolPolicy } from "./policy.js";

const ALL = [...PINCER_TOOL_NAMES];
/** The coding profile: every tool but OpenClaw's group:nodes (a node is another machine). */
const CODING = ALL.filter((t) => t !== "nodes");
const SESSIONS = [
  "session_status",
  "sessions_list",
  "sessions_history",
  "sessions_send",
  "sessions_spawn",
];

function allowed(cfg: OpenClawConfig, agentId = "main"): string[] {
  return resolveToolPolicy({ cfg: resolveRoster(cfg), agentId }).allowedTools();
}

describe("catalog", () => {
  it("keeps OpenClaw's group names and profiles, restricted to Pincer's tools", () => {
    expect(TOOL_GROUPS["group:fs"]).toEqual(["read", "write", "edit", "apply_patch"]);
    expect(TOOL_GROUPS["group:runtime"]).toEqual(["exec", "process"]);
    expect(TOOL_GROUPS["group:memory"]).toEqual(["memory_search", "memory_get"]);
    expect(TOOL_GROUPS["group:sessions"]).toEqual(SESSIONS);
    expect(TOOL_GROUPS["group:openclaw"]).toEqual(ALL);
    expect(TOOL_GROUPS["group:automation"]).toEqual(["cron"]);
    expect(TOOL_GROUPS["group:nodes"]).toEqual(["nodes"]);
    for (const empty of ["group:web", "group:messaging", "group:ui"]) {
      expect(TOOL_GROUPS[empty], empty).toEqual([]);
    }
    expect(TOOL_PROFILES).toEqual({
      minimal: ["session_status"],
      coding: CODING,
      messaging: SESSIONS,
      full: ALL,
    });
  });
});

describe("resolveToolPolicy", () => {
  it.each<[string, OpenClawConfig, string[]]>([
    ["no config: full", {}, ALL],
    ["minimal profile", { tools: { profile: "minimal" } }, ["session_status"]],
    ["coding profile", { tools: { profile: "coding" } }, CODING],
    ["messaging profile", { tools: { profile: "messaging" } }, SESSIONS],
    ["allow a group", { tools: { allow: ["group:fs"] } }, ["read", "write", "edit", "apply_patch"]],
    [
      "groups of absent tools add nothing",
      { tools: { allow: ["group:runtime", "group:web"] } },
      ["apply_patch", "exec", "process"],
    ],
    ["glob", { tools: { allow: ["sessions_*"] } }, SESSIONS.slice(1)],
    [
      "apply_patch follows exec in an allowlist",
      { tools: { allow: ["exec"] } },
      ["apply_patch", "exec"],
    ],
    [
      "deny a group",
      { tools: { profile: "coding", deny: ["group:runtime"] } },
      CODING.filter((t) => t !== "exec" && t !== "process"),
    ],
    [
      "deny wins over allow (and a denied exec carries no apply_patch)",
      { tools: { allow: ["exec", "read"], deny: ["exec"] } },
      ["read"],
    ],
    ["bash is exec", { tools: { deny: ["bash"] } }, ALL.filter((t) => t !== "exec")],
    [
      "alsoAllow extends the profile",
      { tools: { profile: "minimal", alsoAllow: ["read"] } },
      ["read", "session_status"],
    ],
    [
      "alsoAllow extends an allowlist",
      { tools: { allow: ["read"], alsoAllow: ["write"] } },
      ["read", "write"],
    ],
    ["alsoAllow alone restricts nothing", { tools: { alsoAllow: ["read"] } }, ALL],
    [
      "allow * is everything",
      { tools: { profile: "full", allow: ["*"], deny: ["process"] } },
      ALL.filter((t) => t !== "process"),
    ],
  ])("%s", (_name, cfg, expected) => {
    expect(allowed(cfg).sort()).toEqual([...expected].sort());
  });

  it("narrows with per-agent allow lists and never widens the global ones", () => {
    const cfg: OpenClawConfig = {
      tools: { allow: ["group:fs", "group:runtime"] },
      agents: { list: [{ id: "main" }, { id: "ro", tools: { allow: ["read", "sessions_list"] } }] },
    };
    expect(allowed(cfg, "main")).toEqual([
      "read",
      "write",
      "edit",
      "apply_patch",
      "exec",
      "process",
    ]);
    expect(allowed(cfg, "ro")).toEqual(["read"]);
    const explain = resolveToolPolicy({ cfg: resolveRoster(cfg), agentId: "ro" }).explain(
      "sessions_list",
    );
    expect(explain).toBe("sessions_list: blocked — not in tools.allow [group:fs, group:runtime]");
  });

  it("lets the agent's profile replace the global one, global lists still applying", () => {
    const cfg: OpenClawConfig = {
      tools: { profile: "minimal", deny: ["write"] },
      agents: { list: [{ id: "dev", tools: { profile: "coding" } }] },
    };
    const policy = resolveToolPolicy({ cfg: resolveRoster(cfg), agentId: "dev" });
    expect(policy.profile).toBe("coding");
    expect(policy.allowedTools()).toEqual(CODING.filter((t) => t !== "write"));
    expect(allowed(cfg, "other")).toEqual(["session_status"]);
  });

  it("applies tools.byProvider for the run's provider or provider/model", () => {
    const cfg: OpenClawConfig = {
      tools: {
        byProvider: {
          "google/gemini-2.5-flash": { profile: "minimal" },
          openai: { deny: ["exec"] },
        },
      },
    };
    const gemini = resolveToolPolicy({
      cfg: resolveRoster(cfg),
      agentId: "main",
      provider: "google",
      modelId: "gemini-2.5-flash",
    });
    expect(gemini.allowedTools()).toEqual(["session_status"]);
    expect(
      resolveToolPolicy({
        cfg: resolveRoster(cfg),
        agentId: "main",
        provider: "google",
        modelId: "gemini-3",
      }).allowedTools(),
    ).toEqual(ALL);
    const openai = resolveToolPolicy({
      cfg: resolveRoster(cfg),
      agentId: "main",
      provider: "OpenAI",
    });
    expect(openai.allows("exec")).toBe(false);
    expect(openai.explain("exec")).toBe(
      'exec: blocked — denied by tools.byProvider.openai.deny ("exec")',
    );
  });

  it("resolves agents.entries (keyed by id) and names the config path in explanations", () => {
    const cfg: OpenClawConfig = { agents: { entries: { family: { tools: { deny: ["exec"] } } } } };
    const policy = resolveToolPolicy({ cfg: resolveRoster(cfg), agentId: "Family" });
    expect(policy.explain("EXEC")).toBe(
      'exec: blocked — denied by agents.entries.family.tools.deny ("exec")',
    );
    expect(policy.explain("read")).toBe("read: allowed — no allowlist or deny entry applies");
  });

  describe("configs of OpenClaw's multi-agent examples", () => {
    const family: OpenClawConfig = {
      agents: {
        list: [
          {
            id: "family",
            tools: {
              allow: [
                "exec",
                "read",
                "sessions_list",
                "sessions_history",
                "sessions_send",
                "sessions_spawn",
                "session_status",
              ],
              deny: ["write", "edit", "apply_patch", "browser", "canvas", "nodes", "cron"],
            },
          },
        ],
      },
    };

    it("family agent in a WhatsApp group: restrictive allow + deny", () => {
      const policy = resolveToolPolicy({ cfg: resolveRoster(family), agentId: "family" });
      expect(policy.allowedTools()).toEqual(["read", "exec", ...SESSIONS]);
      expect(policy.explain("apply_patch")).toBe(
        'apply_patch: blocked — denied by agents.list[0].tools.deny ("apply_patch")',
      );
      expect(policy.explain("process")).toContain("not in agents.list[0].tools.allow");
      expect(policy.explain("browser")).toBe(
        'browser: blocked (not a Pincer built-in tool) — denied by agents.list[0].tools.deny ("browser")',
      );
      expect(policy.explain("read")).toBe(
        'read: allowed — listed in agents.list[0].tools.allow ("read")',
      );
    });

    it("personal vs family (per-agent restrictions, OpenClaw v2026.1.6)", () => {
      const cfg: OpenClawConfig = {
        agents: {
          list: [
            { id: "personal" },
            {
              id: "family",
              tools: { allow: ["read"], deny: ["exec", "write", "edit", "apply_patch"] },
            },
          ],
        },
      };
      expect(allowed(cfg, "personal")).toEqual(ALL);
      expect(allowed(cfg, "family")).toEqual(["read"]);
    });

    it("main agent with profile coding, allow browser, deny canvas: allow narrows the profile", () => {
      const cfg: OpenClawConfig = {
        agents: {
          list: [
            { id: "main", tools: { profile: "coding", allow: ["browser"], deny: ["canvas"] } },
          ],
        },
      };
      const policy = resolveToolPolicy({ cfg: resolveRoster(cfg), agentId: "main" });
      expect(policy.allowedTools()).toEqual([]);
      expect(policy.explain("read")).toBe(
        "read: blocked — not in agents.list[0].tools.allow [browser]",
      );
    });
  });
});

describe("agents.defaults.tools", () => {
  it("applies to every agent: its deny wins over an agent's allow, its profile under the agent's own", () => {
    const cfg = {
      agents: {
        defaults: { tools: { deny: ["exec"], profile: "messaging" } },
        list: [{ id: "main", tools: { allow: ["exec", "read"], profile: "coding" } }, { id: "ro" }],
      },
    } as OpenClawConfig;
    const main = resolveToolPolicy({ cfg: resolveRoster(cfg), agentId: "main" });
    expect(main.allows("exec")).toBe(false);
    expect(main.explain("exec")).toBe(
      'exec: blocked — denied by agents.defaults.tools.deny ("exec")',
    );
    expect(main.allowedTools()).toEqual(["read"]);
    // No profile of its own: the defaults' profile, named as such.
    const ro = resolveToolPolicy({ cfg: resolveRoster(cfg), agentId: "ro" });
    expect(ro.profile).toBe("messaging");
    expect(ro.allowedTools()).toEqual(SESSIONS);
    expect(ro.explain("read")).toContain('agents.defaults.tools.profile "messaging"');
  });

  it("byProvider entries of the defaults narrow that provider only", () => {
    const cfg = {
      agents: { defaults: { tools: { byProvider: { openai: { deny: ["write"] } } } } },
    } as OpenClawConfig;
    const roster = resolveRoster(cfg);
    const openai = resolveToolPolicy({ cfg: roster, agentId: "main", provider: "openai" });
    expect(openai.allows("write")).toBe(false);
    expect(resolveToolPolicy({ cfg: roster, agentId: "main", provider: "x" }).allows("write")).toBe(
      true,
    );
  });

  it("exec and fs settings fall back to the defaults before the top-level tools", () => {
    const cfg = {
      tools: { exec: { timeoutSec: 50 }, fs: { workspaceOnly: false } },
      agents: {
        defaults: { tools: { exec: { timeoutSec: 20 }, fs: { workspaceOnly: true } } },
        list: [{ id: "main" }, { id: "own", tools: { exec: { timeoutSec: 5 } } }],
      },
    } as OpenClawConfig;
    const roster = resolveRoster(cfg);
    expect(resolveToolSettings(roster, "main")).toMatchObject({
      timeoutSec: 20,
      fsWorkspaceOnly: true,
    });
    expect(resolveToolSettings(roster, "own").timeoutSec).toBe(5);
  });
});
