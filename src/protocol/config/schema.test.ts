import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { resolveDefaultAgentId } from "../../agents/roster.js";
import {
  AgentEntrySchema,
  BindingSchema,
  ChannelConfigSchema,
  GatewayConfigSchema,
  type OpenClawConfig,
  OpenClawConfigSchema,
} from "./index.js";

const check = (value: unknown) => Value.Check(OpenClawConfigSchema, value);

/** A minimal config a real OpenClaw gateway started with (local mode, token auth, one agent). */
const minimalConfig = {
  gateway: {
    mode: "local",
    port: 18799,
    bind: "loopback",
    auth: { mode: "token", token: "test-token-123" },
  },
  agents: {
    defaults: { workspace: "/tmp/scratch/workspace", model: { primary: "local/my-model" } },
    entries: { main: {} },
  },
  models: {
    mode: "merge",
    providers: {
      local: {
        baseUrl: "http://127.0.0.1:8000/v1",
        apiKey: "sk-local",
        api: "openai-completions",
        models: [
          {
            id: "my-model",
            name: "My Model",
            reasoning: false,
            input: ["text"],
            contextWindow: 32000,
            maxTokens: 4096,
          },
        ],
      },
    },
  },
};

describe("OpenClawConfigSchema: valid configs", () => {
  it("accepts the empty config", () => {
    expect(check({})).toBe(true);
  });

  it("accepts a minimal config a real OpenClaw gateway starts with", () => {
    expect([...Value.Errors(OpenClawConfigSchema, minimalConfig)]).toEqual([]);
    expect(resolveDefaultAgentId(minimalConfig as OpenClawConfig)).toBe("main");
  });

  it("accepts every top-level section OpenClaw knows", () => {
    const sections = [
      "meta",
      "env",
      "wizard",
      "diagnostics",
      "logging",
      "update",
      "telemetry",
      "browser",
      "ui",
      "secrets",
      "auth",
      "accessGroups",
      "acp",
      "models",
      "nodeHost",
      "agents",
      "tools",
      "security",
      "broadcast",
      "attachments",
      "messages",
      "tts",
      "commands",
      "approvals",
      "session",
      "cron",
      "transcripts",
      "hooks",
      "channels",
      "discovery",
      "talk",
      "gateway",
      "cloudWorkers",
      "desktop",
      "memory",
      "mcp",
      "skills",
      "plugins",
      "surfaces",
      "proxy",
    ];
    for (const key of sections) expect(check({ [key]: {} }), key).toBe(true);
    expect(check({ $schema: "https://example.test/schema.json", bindings: [] })).toBe(true);
    expect(check({ worktreeRoot: "~/worktrees", worktreeAcceleration: false })).toBe(true);
  });

  it("accepts SecretRefs, numeric peer ids, extra channels and broadcast objects", () => {
    const config = {
      models: {
        providers: {
          azure: { baseUrl: "https://x.test", apiKey: { source: "env", id: "AZURE_KEY" } },
        },
      },
      gateway: {
        auth: { mode: "password", password: { source: "file", provider: "f", id: "/pw" } },
      },
      bindings: [
        {
          type: "route",
          agentId: "a",
          comment: "x",
          match: { channel: "telegram", peer: { kind: "group", id: -100123 } },
        },
        {
          agentId: "b",
          match: { channel: "discord", guildId: "g1", roles: ["r1"] },
          session: { dmScope: "per-peer", groupScope: "main" },
        },
      ],
      channels: {
        defaults: { groupPolicy: "allowlist" },
        modelByChannel: { discord: { "123": "anthropic/claude-sonnet-4-5" } },
        mattermost: { enabled: true, dmPolicy: "open", allowFrom: ["*", 42] },
      },
      broadcast: { "telegram:-100": { agents: ["a", "b"], mentionGating: false, maxRounds: 2 } },
      messages: {
        queue: {
          mode: "collect",
          debounceMs: 1000,
          cap: 20,
          drop: "summarize",
          byChannel: { whatsapp: "steer" },
        },
      },
      session: {
        scope: "per-sender",
        dmScope: "per-account-channel-peer",
        identityLinks: { alice: ["telegram:1", "whatsapp:+1"] },
      },
      skills: {
        allowBundled: ["gh"],
        load: { extraDirs: ["~/skills"], watch: true },
        entries: { gh: { enabled: true, env: { A: "b" } } },
      },
      env: { vars: { A: "1" }, OPENAI_API_KEY: "sk-x" },
    };
    expect([...Value.Errors(OpenClawConfigSchema, config)]).toEqual([]);
  });
});

describe("OpenClawConfigSchema: invalid configs", () => {
  const bad: Array<[string, unknown]> = [
    ["unknown root key", { bogus: true }],
    ["misspelled root key", { bindigs: [] }],
    ["port as a string", { gateway: { port: "18789" } }],
    ["port out of range", { gateway: { port: 70000 } }],
    ["fractional port", { gateway: { port: 18789.5 } }],
    ["unknown bind", { gateway: { bind: "everywhere" } }],
    ["unknown auth mode", { gateway: { auth: { mode: "oauth" } } }],
    ["unknown gateway.auth key", { gateway: { auth: { mode: "token", tokn: "x" } } }],
    ["wrong dmPolicy", { channels: { telegram: { dmPolicy: "friends" } } }],
    [
      "wrong groupPolicy in an account",
      { channels: { slack: { accounts: { a: { groupPolicy: "some" } } } } },
    ],
    ["wrong dmPolicy on an unlisted channel", { channels: { zulip: { dmPolicy: "nope" } } }],
    ["channel config not an object", { channels: { zulip: true } }],
    [
      "binding peer without id",
      { bindings: [{ agentId: "a", match: { channel: "x", peer: { kind: "group" } } }] },
    ],
    [
      "binding peer with unknown kind",
      { bindings: [{ agentId: "a", match: { channel: "x", peer: { kind: "room", id: "1" } } }] },
    ],
    ["binding without agentId", { bindings: [{ match: { channel: "whatsapp" } }] }],
    ["binding without match", { bindings: [{ agentId: "a" }] }],
    ["binding with empty channel", { bindings: [{ agentId: "a", match: { channel: "" } }] }],
    [
      "binding match with unknown key",
      { bindings: [{ agentId: "a", match: { channel: "x", acountId: "b" } }] },
    ],
    [
      "binding of unknown type",
      { bindings: [{ type: "mirror", agentId: "a", match: { channel: "x" } }] },
    ],
    ["wrong dmScope", { session: { dmScope: "per-user" } }],
    ["wrong groupScope", { session: { groupScope: "per-thread" } }],
    ["reset hour out of range", { session: { reset: { mode: "daily", atHour: 24 } } }],
    ["identityLinks values not arrays", { session: { identityLinks: { alice: "telegram:1" } } }],
    ["list entry without id", { agents: { list: [{ workspace: "~/w" }] } }],
    ["agents unknown key", { agents: { lst: [] } }],
    ["model as a number", { agents: { defaults: { model: 5 } } }],
    ["wrong sandbox mode", { agents: { list: [{ id: "a", sandbox: { mode: "sometimes" } }] } }],
    ["wrong workspaceAccess", { agents: { defaults: { sandbox: { workspaceAccess: "write" } } } }],
    [
      "wrong truncation warning",
      { agents: { defaults: { bootstrapPromptTruncationWarning: "never" } } },
    ],
    ["negative daily budget", { agents: { defaults: { budget: { daily: -1 } } } }],
    [
      "budget onExceed not an action",
      { agents: { list: [{ id: "a", budget: { onExceed: "stop" } }] } },
    ],
    [
      "budget fallback without a model",
      { agents: { defaults: { budget: { onExceed: "fallback:" } } } },
    ],
    [
      "budget perTurnTokens not an integer",
      { agents: { defaults: { budget: { perTurnTokens: 1.5 } } } },
    ],
    ["wrong tool profile", { tools: { profile: "admin" } }],
    ["wrong queue mode", { messages: { queue: { mode: "fast" } } }],
    ["wrong queue drop", { messages: { queue: { drop: "oldest-first" } } }],
    ["wrong broadcast strategy", { broadcast: { strategy: "random" } }],
    ["broadcast peer to a string", { broadcast: { "+1555": "support" } }],
    ["broadcast maxRounds out of range", { broadcast: { x: { agents: ["a"], maxRounds: 9 } } }],
    [
      "SecretRef with unknown source",
      { models: { providers: { p: { apiKey: { source: "vault", id: "x" } } } } },
    ],
    ["provider model without name", { models: { providers: { p: { models: [{ id: "m" }] } } } }],
    ["wrong models.mode", { models: { mode: "append" } }],
    ["wrong api", { models: { providers: { p: { api: "openai" } } } }],
    ["auth profile without mode", { auth: { profiles: { "a:b": { provider: "a" } } } }],
    ["commands.native wrong type", { commands: { native: "yes" } }],
  ];

  it.each(bad)("rejects %s", (_name, config) => {
    expect(check(config)).toBe(false);
  });
});

describe("sub-schemas", () => {
  it("validate on their own", () => {
    expect(
      Value.Check(BindingSchema, { agentId: "a", match: { channel: "slack", teamId: "T1" } }),
    ).toBe(true);
    expect(
      Value.Check(AgentEntrySchema, { id: "a", model: { primary: "x/y", fallbacks: [] } }),
    ).toBe(true);
    expect(Value.Check(ChannelConfigSchema, { groups: { "*": { requireMention: false } } })).toBe(
      true,
    );
    expect(Value.Check(GatewayConfigSchema, { port: 0 })).toBe(false);
  });
});

type Node = Record<string, unknown>;

function visit(schema: unknown, path: string, seen: (node: Node, path: string) => void): void {
  if (typeof schema !== "object" || schema === null) return;
  const node = schema as Node;
  seen(node, path);
  for (const [key, child] of Object.entries(node.properties ?? {}))
    visit(child, `${path}.${key}`, seen);
  for (const child of Object.values(node.patternProperties ?? {})) visit(child, `${path}.*`, seen);
  for (const [index, child] of ((node.anyOf as unknown[]) ?? []).entries())
    visit(child, `${path}|${index}`, seen);
  visit(node.items, `${path}[]`, seen);
  if (typeof node.additionalProperties === "object")
    visit(node.additionalProperties, `${path}.+`, seen);
}

describe("schema conventions", () => {
  it("gives every property a description", () => {
    const missing: string[] = [];
    visit(OpenClawConfigSchema, "$", (node, path) => {
      for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, Node>)) {
        if (typeof child.description !== "string" || child.description === "")
          missing.push(`${path}.${key}`);
      }
    });
    expect(missing).toEqual([]);
  });

  it("states additionalProperties on every object with properties and uses no $ref/allOf", () => {
    const unstated: string[] = [];
    const forbidden: string[] = [];
    visit(OpenClawConfigSchema, "$", (node, path) => {
      if (node.properties && node.additionalProperties === undefined) unstated.push(path);
      if ("$ref" in node || "allOf" in node || "enum" in node) forbidden.push(path);
    });
    expect(unstated).toEqual([]);
    expect(forbidden).toEqual([]);
  });

  it("keeps the root closed", () => {
    expect((OpenClawConfigSchema as unknown as Node).additionalProperties).toBe(false);
  });
});
