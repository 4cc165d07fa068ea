// Every openclaw.json example of OpenClaw's multi-agent and channel routing docs, and of a full
// gateway setup (agents.list, bindings, per-agent sandbox and tools), must validate.
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { OpenClawConfigSchema } from "./index.js";

function errorsOf(config: unknown): string[] {
  return [...Value.Errors(OpenClawConfigSchema, config)].map(
    (error) => `${error.instancePath || "/"} ${error.message}`,
  );
}

const gatewaySetupExamples: Record<string, unknown> = {
  "agents.list with two agents": {
    agents: {
      list: [
        {
          id: "main",
          default: true,
          name: "Main Agent",
          workspace: "~/.openclaw/workspace",
          agentDir: "~/.openclaw/agents/main/agent",
          model: "anthropic/claude-opus-4-6",
          params: { cacheRetention: "none" },
          identity: { name: "Samantha", emoji: "🦥", avatar: "avatars/samantha.png" },
          groupChat: { mentionPatterns: ["@openclaw"] },
          sandbox: { mode: "off" },
          subagents: { allowAgents: ["*"] },
          tools: { profile: "coding", allow: ["browser"], deny: ["canvas"] },
        },
        {
          id: "work",
          workspace: "~/.openclaw/workspace-work",
          agentDir: "~/.openclaw/agents/work/agent",
        },
      ],
    },
    bindings: [
      { agentId: "main", match: { channel: "whatsapp", accountId: "personal" } },
      { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
    ],
  },
  "one agent per channel": {
    agents: {
      list: [
        { id: "chat", workspace: "~/.openclaw/workspace-chat" },
        { id: "opus", workspace: "~/.openclaw/workspace-opus" },
      ],
    },
    bindings: [
      { agentId: "chat", match: { channel: "whatsapp" } },
      { agentId: "opus", match: { channel: "telegram" } },
    ],
  },
  "one peer to another agent": {
    bindings: [
      { agentId: "opus", match: { channel: "whatsapp", peer: { kind: "direct", id: "[phone]" } } },
      { agentId: "chat", match: { channel: "whatsapp" } },
    ],
  },
  "two WhatsApp accounts, two agents": {
    agents: {
      list: [
        {
          id: "home",
          default: true,
          workspace: "~/.openclaw/workspace-home",
          agentDir: "~/.openclaw/agents/home/agent",
        },
        {
          id: "work",
          workspace: "~/.openclaw/workspace-work",
          agentDir: "~/.openclaw/agents/work/agent",
        },
      ],
    },
    bindings: [
      { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
      { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
    ],
    channels: { whatsapp: { accounts: { personal: {}, biz: {} } } },
  },
  "Telegram: two bots, two agents": {
    agents: {
      list: [
        { id: "main", workspace: "~/.openclaw/workspace-main" },
        { id: "alerts", workspace: "~/.openclaw/workspace-alerts" },
      ],
    },
    bindings: [
      { agentId: "main", match: { channel: "telegram", accountId: "default" } },
      { agentId: "alerts", match: { channel: "telegram", accountId: "alerts" } },
    ],
    channels: {
      telegram: {
        accounts: {
          default: { botToken: "123456:ABC...", dmPolicy: "pairing" },
          alerts: { botToken: "987654:XYZ...", dmPolicy: "allowlist", allowFrom: ["tg:123456789"] },
        },
      },
    },
  },
  "minimal Telegram": {
    channels: {
      telegram: {
        enabled: true,
        botToken: "your-bot-token",
        dmPolicy: "pairing",
        allowFrom: ["tg:123456789"],
        groups: { "*": { requireMention: true } },
      },
    },
  },
  "workspace override snippet (legacy top-level agent)": {
    agent: { workspace: "~/.openclaw/workspace" },
  },
  "skip bootstrap snippet (legacy top-level agent)": { agent: { skipBootstrap: true } },
  "settings named in the prose": {
    agents: {
      defaults: {
        workspace: "~/.openclaw/workspace",
        model: {
          primary: "azure-openai-responses/gpt-5.5",
          fallbacks: ["azure-openai-responses/gpt-5.4"],
        },
        models: { "anthropic/claude-sonnet-4-5": { alias: "sonnet" } },
        skipBootstrap: true,
        bootstrapMaxChars: 20000,
        bootstrapTotalMaxChars: 150000,
        bootstrapPromptTruncationWarning: "once",
        userTimezone: "America/Santiago",
        timeFormat: "24",
        timeoutSeconds: 600,
        blockStreamingDefault: "off",
        blockStreamingBreak: "text_end",
        blockStreamingChunk: { minChars: 200, maxChars: 1200 },
        blockStreamingCoalesce: { idleMs: 500 },
        sandbox: {
          mode: "non-main",
          workspaceAccess: "ro",
          workspaceRoot: "~/.openclaw/sandboxes",
        },
      },
      list: [
        {
          id: "main",
          sandbox: { mode: "all", scope: "session", docker: { setupCommand: "true" } },
        },
      ],
    },
    tools: {
      exec: { applyPatch: { enabled: true } },
      elevated: { enabled: true, allowFrom: { whatsapp: ["+1555"] } },
    },
    channels: { whatsapp: { allowFrom: ["+15551234567"] }, discord: { blockStreaming: true } },
    session: { store: "~/.openclaw/agents/{agentId}/sessions/sessions.json", mainKey: "main" },
    auth: { order: { anthropic: ["anthropic:work", "anthropic:default"] } },
  },
};

const channelRoutingExamples: Record<string, unknown> = {
  "broadcast groups": {
    broadcast: {
      strategy: "parallel",
      "[email protected]": ["alfred", "baerbel"],
      "+15555550123": ["support", "logger"],
    },
  },
  "support agent bound by team and group": {
    agents: {
      list: [{ id: "support", name: "Support", workspace: "~/.openclaw/workspace-support" }],
    },
    bindings: [
      { match: { channel: "slack", teamId: "T123" }, agentId: "support" },
      {
        match: { channel: "telegram", peer: { kind: "group", id: "-100123" } },
        agentId: "support",
      },
    ],
  },
};

const chatAndOpus = {
  list: [
    {
      id: "chat",
      name: "Everyday",
      workspace: "~/.openclaw/workspace-chat",
      model: "anthropic/claude-sonnet-4-5",
    },
    {
      id: "opus",
      name: "Deep Work",
      workspace: "~/.openclaw/workspace-opus",
      model: "anthropic/claude-opus-4-5",
    },
  ],
};

const multiAgentExamples: Record<string, unknown> = {
  "one WhatsApp number, DMs split by sender": {
    agents: {
      list: [
        { id: "alex", workspace: "~/.openclaw/workspace-alex" },
        { id: "mia", workspace: "~/.openclaw/workspace-mia" },
      ],
    },
    bindings: [
      { agentId: "alex", match: { channel: "whatsapp", peer: { kind: "dm", id: "+15551230001" } } },
      { agentId: "mia", match: { channel: "whatsapp", peer: { kind: "dm", id: "+15551230002" } } },
    ],
    channels: { whatsapp: { dmPolicy: "allowlist", allowFrom: ["+15551230001", "+15551230002"] } },
  },
  "home and work with a per-peer override": {
    agents: {
      list: [
        {
          id: "home",
          default: true,
          name: "Home",
          workspace: "~/.openclaw/workspace-home",
          agentDir: "~/.openclaw/agents/home/agent",
        },
        {
          id: "work",
          name: "Work",
          workspace: "~/.openclaw/workspace-work",
          agentDir: "~/.openclaw/agents/work/agent",
        },
      ],
    },
    bindings: [
      { agentId: "home", match: { channel: "whatsapp", accountId: "personal" } },
      { agentId: "work", match: { channel: "whatsapp", accountId: "biz" } },
      {
        agentId: "work",
        match: {
          channel: "whatsapp",
          accountId: "personal",
          peer: { kind: "group", id: "[email protected]" },
        },
      },
    ],
    tools: { agentToAgent: { enabled: false, allow: ["home", "work"] } },
    channels: { whatsapp: { accounts: { personal: {}, biz: {} } } },
  },
  "home and work with explicit authDir": {
    channels: {
      whatsapp: {
        accounts: {
          personal: { authDir: "~/.openclaw/credentials/whatsapp/personal" },
          biz: { authDir: "~/.openclaw/credentials/whatsapp/biz" },
        },
      },
    },
  },
  "split by channel": {
    agents: chatAndOpus,
    bindings: [
      { agentId: "chat", match: { channel: "whatsapp" } },
      { agentId: "opus", match: { channel: "telegram" } },
    ],
  },
  "one DM to Opus, the rest to chat": {
    agents: chatAndOpus,
    bindings: [
      { agentId: "opus", match: { channel: "whatsapp", peer: { kind: "dm", id: "+15551234567" } } },
      { agentId: "chat", match: { channel: "whatsapp" } },
    ],
  },
  "family agent bound to one group": {
    agents: {
      list: [
        {
          id: "family",
          name: "Family",
          workspace: "~/.openclaw/workspace-family",
          identity: { name: "Family Bot" },
          groupChat: { mentionPatterns: ["@family", "@familybot", "@Family Bot"] },
          sandbox: { mode: "all", scope: "agent" },
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
    bindings: [
      {
        agentId: "family",
        match: { channel: "whatsapp", peer: { kind: "group", id: "[email protected]" } },
      },
    ],
  },
  "per-agent sandbox and tools": {
    agents: {
      list: [
        { id: "personal", workspace: "~/.openclaw/workspace-personal", sandbox: { mode: "off" } },
        {
          id: "family",
          workspace: "~/.openclaw/workspace-family",
          sandbox: {
            mode: "all",
            scope: "agent",
            docker: { setupCommand: "apt-get update && apt-get install -y git curl" },
          },
          tools: { allow: ["read"], deny: ["exec", "write", "edit", "apply_patch"] },
        },
      ],
    },
  },
};

describe.each([
  ["a full gateway setup", gatewaySetupExamples],
  ["channels and routing", channelRoutingExamples],
  ["multi-agent routing", multiAgentExamples],
])("examples: %s", (_name, examples) => {
  it.each(Object.entries(examples))("%s validates", (_title, config) => {
    expect(errorsOf(config)).toEqual([]);
    expect(Value.Check(OpenClawConfigSchema, config)).toBe(true);
  });
});
