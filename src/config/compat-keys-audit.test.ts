// The audit of "nothing accepted is silently ignored": keys and values the schema accepted without a
// mark although nothing reads them, keys OpenClaw's legacy `agent` block moves elsewhere, keys an open
// section lets through without any schema, and disabled sections (which ask for nothing).
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { compatKeyIssues, findCompatKeys, UNKNOWN_KEY_NOTE } from "./compat-keys.js";
import { compactSchema } from "./schema-compact.js";

const paths = (config: unknown) => findCompatKeys(config).map((use) => use.path);

describe("keys accepted and not read are reported", () => {
  it("agent settings nothing reads, in defaults, list entries and entries by id", () => {
    const config = {
      agents: {
        defaults: {
          timeFormat: "24",
          repoRoot: "/src",
          contextTokens: 100000,
          mediaMaxMb: 20,
          tools: { deny: ["exec"] },
          subagents: { model: "openai/gpt-5", maxConcurrent: 2, allowAgents: ["*"] },
          heartbeat: { every: "30m", model: "openai/gpt-5-mini" },
          models: {
            "openai/gpt-5": { alias: "g", streaming: false },
            "openai/o3": { streaming: true },
          },
        },
        list: [
          { id: "main" },
          {
            id: "work",
            userTimezone: "Europe/Madrid",
            cwd: "/srv",
            contextTokens: 5000,
            groupChat: { mentionPatterns: ["@w"], historyLimit: 5 },
            subagents: { thinking: "high" },
          },
        ],
      },
    };
    expect(paths(config).sort()).toEqual(
      [
        "agents.defaults.contextTokens",
        "agents.defaults.mediaMaxMb",
        "agents.defaults.subagents.model",
        "agents.defaults.subagents.maxConcurrent",
        "agents.defaults.heartbeat.model",
        "agents.defaults.models.openai/gpt-5.streaming",
        "agents.list[1].cwd",
        "agents.list[1].contextTokens",
        "agents.list[1].groupChat.historyLimit",
        "agents.list[1].subagents.thinking",
      ].sort(),
    );
    expect(paths({ agents: { entries: { ops: { cwd: "/x" } } } })).toEqual([
      "agents.entries.ops.cwd",
    ]);
  });

  it("other sections: tools.subagents, shellEnv, model contextTokens, channel heartbeat defaults", () => {
    const config = {
      // env vars are applied (src/config/config-env.ts): only the login-shell import is marked.
      env: { vars: { A: "1" }, OPENAI_API_KEY: "sk", shellEnv: { enabled: true } },
      tools: { subagents: { tools: { deny: ["exec"] } } },
      models: {
        providers: { local: { models: [{ id: "m", name: "m", contextTokens: 8000 }] } },
      },
      channels: { defaults: { heartbeat: { showOk: true } } },
    };
    (config.models.providers.local as Record<string, unknown>).auth = "oauth";
    expect(paths(config).sort()).toEqual(
      [
        "env.shellEnv",
        "tools.subagents",
        "models.providers.local.models[0].contextTokens",
        "models.providers.local.auth",
        "channels.defaults.heartbeat",
      ].sort(),
    );
  });

  it("skill env, per-topic overrides and the allowlist form of an agent's models", () => {
    const config = {
      skills: { entries: { weather: { enabled: true, env: { W_KEY: "k" }, apiKey: "x" } } },
      channels: { telegram: { botToken: "1:a", groups: { "-100": { topics: { "7": {} } } } } },
      agents: {
        list: [
          { id: "a", models: ["openai/gpt-5"] },
          { id: "b", models: { "openai/gpt-5": { alias: "g" } } },
        ],
      },
    };
    expect(paths(config).sort()).toEqual(
      [
        "skills.entries.weather.env",
        "skills.entries.weather.apiKey",
        "channels.telegram.groups.-100.topics",
        "agents.list[0].models",
      ].sort(),
    );
  });

  it("enum values accepted and ignored warn; the implemented values do not", () => {
    expect(paths({ gateway: { bind: "auto" } })).toEqual(["gateway.bind"]);
    expect(paths({ gateway: { mode: "remote" } })).toEqual(["gateway.mode"]);
    expect(paths({ gateway: { mode: "local" } })).toEqual([]);
    expect(paths({ gateway: { auth: { mode: "trusted-proxy" } } })).toEqual(["gateway.auth.mode"]);
    expect(paths({ agents: { defaults: { typingMode: "thinking" } } })).toEqual([
      "agents.defaults.typingMode",
    ]);
    expect(paths({ session: { typingMode: "message" } })).toEqual(["session.typingMode"]);
    const [bind] = compatKeyIssues({ config: { gateway: { bind: "auto" } } });
    expect(bind?.message).toMatch(/^"auto" is accepted for OpenClaw compatibility and ignored/);
    expect(
      paths({
        gateway: { bind: "lan", auth: { mode: "password" } },
        session: { typingMode: "never" },
        agents: { defaults: { typingMode: "instant" }, list: [{ id: "a", typingMode: "never" }] },
      }),
    ).toEqual([]);
  });

  it("the implemented copies stay quiet", () => {
    const config = {
      agents: {
        defaults: { userTimezone: "UTC", subagents: { allowAgents: ["*"] } },
        list: [{ id: "a", tools: { deny: ["exec"] }, typingIntervalSeconds: 3, description: "d" }],
      },
      channels: {
        telegram: {
          botToken: "1:a",
          apiRoot: "http://127.0.0.1:8081",
          timeoutSeconds: 30,
          accounts: { work: { botToken: "2:b", apiRoot: "http://x", timeoutSeconds: 5 } },
        },
      },
      meta: { lastTouchedVersion: "2026.1.1", somethingElse: 1 },
      wizard: { lastRunAt: "x", lastRunFlow: "quick" },
    };
    expect(paths(config)).toEqual([]);
  });
});

describe("the legacy top-level agent block", () => {
  it("keys OpenClaw's migration moves to tools are reported where they are written", () => {
    const config = {
      agent: {
        elevated: { enabled: true },
        bash: { ask: "always", timeoutSec: 30 },
        tools: { web: { search: { enabled: true } }, agentToAgent: { enabled: true } },
        sandbox: { mode: "off", tools: { deny: ["exec"] } },
        subagents: { tools: { allow: ["read"] } },
        modelFallbacks: ["openai/gpt-5"],
        userTimezone: "UTC",
      },
    };
    expect(paths(config).sort()).toEqual(
      ["agent.tools.web", "agent.sandbox.tools", "agent.subagents.tools"].sort(),
    );
  });
});

describe("keys no schema covers in a section that lets extra keys through", () => {
  it("are reported by path with their own note", () => {
    const uses = findCompatKeys({
      agents: { list: [{ id: "a", fooBar: 1 }] },
      gateway: { somethingNew: true },
      channels: { telegram: { accounts: { work: { botToken: "x", pollMode: "fast" } } } },
    });
    expect(uses.map((use) => use.path)).toEqual([
      "agents.list[0].fooBar",
      "gateway.somethingNew",
      "channels.telegram.accounts.work.pollMode",
    ]);
    expect(uses.every((use) => use.note === UNKNOWN_KEY_NOTE)).toBe(true);
  });
});

describe("a disabled section asks for nothing", () => {
  it("no warning for marked or unknown keys below enabled:false", () => {
    expect(
      paths({
        channels: {
          telegram: {
            botToken: "1:a",
            accounts: { old: { enabled: false, blockStreaming: true, pollMode: "x" } },
          },
        },
        gateway: { controlUi: { enabled: false, root: "/srv/ui" } },
      }),
    ).toEqual([]);
    expect(paths({ gateway: { controlUi: { root: "/srv/ui" } } })).toEqual([
      "gateway.controlUi.root",
    ]);
  });
});

describe("compactSchema", () => {
  it("drops description annotations but keeps a property named description", () => {
    const compact = compactSchema(
      Type.Object({ description: Type.Optional(Type.String({ description: "What it is for." })) }),
    );
    expect(compact.properties).toEqual({ description: { type: "string" } });
  });
});
