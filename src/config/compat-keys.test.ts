import { describe, expect, it } from "vitest";
import { OpenClawConfigSchema } from "../protocol/config/index.js";
import {
  compatKeyIssues,
  findCompatKeys,
  listCompatMarks,
  withCompatKeyIssues,
} from "./compat-keys.js";
import { formatConfigPath, type PathSegment } from "./config-path.js";
import { DEFAULT_CONFIG_SCHEMA } from "./default-schema.js";
import { validateConfig } from "./validate.js";

// One key of every class Pincer accepts without acting on it: adapter-less channels, whole sections (sandbox sub-keys,
// hooks, cron, mcp, plugins, browser), approvals forwarding, blockStreaming*, session.sendPolicy.
const USES_MARKED = {
  channels: {
    telegram: { botToken: "123:abc", blockStreaming: true },
    matrix: { accounts: { personal: { dmPolicy: "pairing" }, work: {} } },
    signal: { account: "+15550001", receiveMode: "manual" },
    imessage: { cliPath: "/usr/local/bin/imsg", proxy: "http://p:1" },
    mattermost: { botToken: "m" },
  },
  agents: {
    defaults: {
      sandbox: {
        mode: "non-main",
        scope: "agent",
        docker: { image: "x", network: "none", containerPrefix: "p-" },
        browser: { enabled: true },
      },
      blockStreamingDefault: "on",
      blockStreamingCoalesce: { minChars: 100 },
    },
  },
  hooks: {
    enabled: true,
    token: "h",
    gmail: { account: "a@b.c" },
    mappings: [{ match: { path: "x" } }],
  },
  cron: { enabled: true, sessionRetention: "24h" },
  mcp: { servers: { fs: { command: "mcp-fs" } } },
  plugins: { slots: { memory: "memory-core" } },
  browser: { enabled: true },
  approvals: { exec: { enabled: true } },
  session: { sendPolicy: { default: "deny" } },
};

const EXPECTED_PATHS = [
  "channels.telegram.blockStreaming",
  "channels.matrix",
  "channels.signal.receiveMode",
  "channels.imessage.proxy",
  "channels.mattermost",
  "agents.defaults.sandbox.docker.containerPrefix",
  "agents.defaults.sandbox.browser",
  "agents.defaults.blockStreamingDefault",
  "agents.defaults.blockStreamingCoalesce",
  "hooks.gmail",
  "cron.sessionRetention",
  "mcp",
  "plugins.slots",
  "browser",
  "approvals",
  "session.sendPolicy",
];

// Keys Pincer acts on: none of them may warn.
const USES_IMPLEMENTED = {
  gateway: { port: 18789, bind: "loopback", auth: { mode: "token", token: "t" } },
  logging: { level: "info", consoleStyle: "compact" },
  channels: {
    telegram: {
      botToken: "123:abc",
      dmPolicy: "allowlist",
      allowFrom: ["42"],
      groups: { "*": { requireMention: true } },
      textChunkLimit: 3000,
      retry: { attempts: 3 },
    },
    slack: {
      mode: "socket",
      botToken: "xoxb-1",
      appToken: "xapp-1",
      apiUrl: "http://127.0.0.1:1/api/",
      allowBots: false,
      replyToMode: "first",
      channels: { general: { allow: true, requireMention: false } },
      dm: { groupEnabled: true, groupChannels: ["G1"] },
      accounts: {
        work: { mode: "http", botToken: "xoxb-2", signingSecret: "s", webhookPath: "/slack/w" },
      },
    },
  },
  agents: {
    defaults: {
      model: "anthropic/claude-sonnet-4-5",
      sandbox: { mode: "off" },
      timeoutSeconds: 0,
      elevatedDefault: "off",
    },
    list: [
      {
        id: "main",
        default: true,
        workspace: "~/w",
        tools: { deny: ["exec"], elevated: { enabled: false } },
      },
    ],
  },
  bindings: [{ agentId: "main", match: { channel: "telegram" } }],
  session: {
    dmScope: "per-channel-peer",
    identityLinks: { ana: ["telegram:42"] },
    reset: { mode: "daily", atHour: 4 },
    resetByType: { group: { mode: "idle" } },
    resetByChannel: { telegram: { idleMinutes: 30 } },
    resetTriggers: ["/new"],
    idleMinutes: 60,
  },
  messages: { queue: { mode: "collect" } },
  tools: {
    profile: "coding",
    exec: { timeoutSec: 60, security: "allowlist", ask: "on-miss", safeBins: ["jq"] },
    elevated: { enabled: true, allowFrom: { telegram: ["42"] } },
  },
  skills: { entries: { weather: { enabled: true } } },
  hooks: {
    enabled: true,
    token: "t",
    path: "/hooks",
    maxBodyBytes: 4096,
    defaultSessionKey: "hook:ingress",
    allowRequestSessionKey: false,
    allowedSessionKeyPrefixes: ["hook:"],
    allowedAgentIds: ["main"],
    mappings: [{ match: { path: "gh" }, action: "agent", messageTemplate: "{{title}}" }],
    internal: {
      enabled: true,
      entries: { "session-memory": { enabled: true, messages: 20 }, mine: { env: { A: "1" } } },
      load: { extraDirs: ["/srv/hooks"] },
    },
  },
  plugins: {
    enabled: true,
    allow: ["voice"],
    deny: ["bad"],
    load: { paths: ["~/plugins/voice"] },
    entries: {
      voice: {
        enabled: true,
        config: { provider: "twilio" },
        hooks: { timeoutMs: 1000, timeouts: { agent_end: 500 }, allowPromptInjection: false },
      },
    },
  },
  worktreeAcceleration: false,
};

/** A config that sets the marked pattern's path (`*` -> a key, `[]` -> index 0) to `value` (a
 *  literal mark: its literal). */
function configAt(
  mark: string,
  value: unknown = { some: "value" },
): { config: Record<string, unknown>; path: string } {
  const [pattern = "", literal] = mark.split("=");
  const leaf: unknown = literal === undefined ? value : JSON.parse(literal);
  const segments: PathSegment[] = [];
  for (const part of pattern.split(".")) {
    const name = part.replace(/\[\]/g, "");
    segments.push(name === "*" ? "zz" : name);
    for (const _ of part.matchAll(/\[\]/g)) segments.push(0);
  }
  const root: Record<string, unknown> = {};
  let at: Record<string | number, unknown> = root;
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    const nextIsIndex = typeof segments[i + 1] === "number";
    at[segment] = last ? leaf : nextIsIndex ? [] : {};
    at = at[segment] as Record<string | number, unknown>;
  });
  return { config: root, path: formatConfigPath(segments) };
}

describe("findCompatKeys", () => {
  it("reports each marked key the config uses once, by path (a marked section once)", () => {
    const paths = findCompatKeys(USES_MARKED).map((use) => use.path);
    expect(paths.sort()).toEqual([...EXPECTED_PATHS].sort());
  });

  it("a value-level mark warns only for that value", () => {
    expect(findCompatKeys({ session: { scope: "global" } }).map((u) => u.path)).toEqual([
      "session.scope",
    ]);
    expect(findCompatKeys({ session: { scope: "per-sender" } })).toEqual([]);
    expect(listCompatMarks()).toContain('session.scope="global"');
  });

  it("reports nothing for a config of implemented keys (a disabled section asks for nothing)", () => {
    expect(findCompatKeys(USES_IMPLEMENTED)).toEqual([]);
  });

  it("warns in plain words with the schema's note, and the config stays valid", () => {
    const issues = compatKeyIssues({ config: USES_MARKED });
    const cron = issues.find((issue) => issue.path === "cron.sessionRetention");
    expect(cron).toMatchObject({ severity: "warning" });
    expect(cron?.message).toMatch(
      /^accepted for OpenClaw compatibility and ignored — Pincer does not act on it yet; issue 19/,
    );
    expect(issues.find((issue) => issue.path === "channels.matrix")?.message).toContain(
      "no adapter",
    );
    expect(validateConfig(USES_MARKED).valid).toBe(true);
  });

  it("withCompatKeyIssues appends located warnings and skips paths already reported", () => {
    const loaded = {
      config: USES_MARKED,
      issues: [
        { severity: "warning" as const, path: "cron.sessionRetention", message: "already said" },
      ],
      locate: (path: string) =>
        path === "mcp" ? { file: "/x/openclaw.json", line: 7, column: 3 } : undefined,
    };
    const out = withCompatKeyIssues(loaded);
    expect(out.issues.filter((issue) => issue.path === "cron.sessionRetention")).toHaveLength(1);
    expect(out.issues.find((issue) => issue.path === "mcp")).toMatchObject({ line: 7 });
    expect(out.issues).toHaveLength(EXPECTED_PATHS.length);
  });
});

describe("the schema's compat marks", () => {
  const marks = listCompatMarks();

  it("the compact run-time schema keeps every mark of the TypeBox source", () => {
    expect(listCompatMarks(OpenClawConfigSchema as never)).toEqual(marks);
    expect(marks.length).toBeGreaterThan(100);
  });

  it("every mark is a real schema path: a config setting it is reported at exactly that path", () => {
    const failures: string[] = [];
    // An object reaches a marked key or section; a marked branch of a union (the array form of an
    // agent's `models`) needs a value of its own type.
    const exactlyAt = (pattern: string, value: unknown) => {
      const { config, path } = configAt(pattern, value);
      const found = findCompatKeys(config, DEFAULT_CONFIG_SCHEMA).map((use) => use.path);
      return found.length === 1 && found[0] === path;
    };
    for (const pattern of marks) {
      if (![{ some: "value" }, ["value"]].some((value) => exactlyAt(pattern, value)))
        failures.push(pattern);
    }
    expect(failures).toEqual([]);
  });

  it("marks every accepted-but-ignored class, and not the parts Pincer implements", () => {
    for (const path of [
      "channels.matrix",
      "channels.signal.receiveMode",
      "channels.imessage.proxy",
      "channels.*",
      "hooks.gmail",
      "hooks.presets",
      "hooks.transformsDir",
      "hooks.internal.handlers",
      "hooks.mappings[].transform",
      "cron.sessionRetention",
      "mcp",
      "plugins.slots",
      "plugins.installs",
      "plugins.entries.*.hooks.allowConversationAccess",
      "browser",
      "approvals",
      "agents.defaults.sandbox.browser",
      "agents.defaults.sandbox.docker.containerPrefix",
      "session.sendPolicy",
      // Marked per channel: the WhatsApp Cloud API reads these names, Telegram and Matrix do not.
      "channels.telegram.webhookPath",
      "channels.telegram.accounts.*.accessToken",
    ])
      expect(marks).toContain(path);
    for (const path of [
      "channels.signal",
      "channels.bluebubbles",
      "channels.imessage",
      "channels.imessage.cliPath",
      "channels.imessage.dbPath",
      "cron",
      "cron.enabled",
      "cron.maxConcurrentRuns",
      "cron.webhook",
      "cron.webhookToken",
      "channels.telegram",
      "channels.whatsapp",
      "channels.discord",
      "channels.discord.token",
      "channels.discord.accounts.*.allowBots",
      "channels.whatsapp.accessToken",
      "channels.whatsapp.accounts.*.webhookPath",
      "channels.whatsapp.accounts.*.appSecret",
      "channels.whatsapp.authDir",
      "channels.whatsapp.accounts.*.authDir",
      "channels.whatsapp.accounts.*.ackReaction",
      "channels.slack",
      "channels.slack.appToken",
      "channels.slack.accounts.*.signingSecret",
      "channels.slack.accounts.*.webhookPath",
      "channels.slack.mode",
      "agents.defaults.sandbox.mode",
      "agents.defaults.sandbox.scope",
      "agents.defaults.sandbox.docker",
      "agents.defaults.sandbox.docker.setupCommand",
      "agents.defaults.sandbox.prune",
      "tools.sandbox",
      "gateway.controlUi.enabled",
      "gateway.controlUi.basePath",
      "gateway.controlUi.allowedOrigins",
      "tools.exec.timeoutSec",
      "tools.exec.security",
      "tools.exec.ask",
      "tools.exec.safeBins",
      "tools.elevated",
      "agents.defaults.elevatedDefault",
      "hooks",
      "hooks.token",
      "hooks.mappings",
      "hooks.internal",
      "hooks.internal.entries",
    ])
      expect(marks).not.toContain(path);
  });
});
