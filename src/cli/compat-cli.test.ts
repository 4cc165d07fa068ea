// Nothing accepted is silently ignored, on the CLI: `config validate` and `pincer status` warn once per
// compat key (naming its path), and `channels list` / `channels status` show an adapter-less channel
// as such with its account names; `channels list --json` has OpenClaw's `chat` map, `auth[]`
// profiles and a per-account `auth[]` (key, source, present; never the secret).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../test/helpers/cli-sandbox.js";

const OFFLINE = ["--url", "ws://127.0.0.1:9", "--timeout", "500"];

const COMPAT_CONFIG = `{
  // an OpenClaw config moved over as is
  channels: {
    mattermost: { accounts: { personal: {}, work: { enabled: false } } },
    matrix: { accessToken: "d-secret" },
  },
  cron: { enabled: true, sessionRetention: "24h" },
  hooks: { enabled: true, token: "h", gmail: { account: "me@example.com" } },
  session: { sendPolicy: { default: "allow" } },
  agents: { defaults: { blockStreamingDefault: "on", sandbox: { mode: "off", browser: { enabled: true } } } },
}`;

const COMPAT_PATHS = [
  "channels.mattermost",
  "channels.matrix",
  "cron.sessionRetention",
  "hooks.gmail",
  "session.sendPolicy",
  "agents.defaults.blockStreamingDefault",
  "agents.defaults.sandbox.browser",
];

describe("config validate and status name every ignored key", () => {
  it("validate: one warning per compat key, by path and line; the config stays valid", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(COMPAT_CONFIG);
    const human = await sb.run(["config", "validate"]);
    expect(human.code).toBe(0);
    for (const path of COMPAT_PATHS) {
      const lines = human.stdout.split("\n").filter((line) => line.includes(`  ${path}  `));
      expect(lines, path).toHaveLength(1);
      expect(lines[0]).toContain("ignored — Pincer does not act on it yet");
    }
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.valid).toBe(true);
    const warned = json.issues
      .filter((issue: { message: string }) => issue.message.includes("OpenClaw compatibility"))
      .map((issue: { path: string }) => issue.path);
    expect(warned.sort()).toEqual([...COMPAT_PATHS].sort());
    const cron = json.issues.find(
      (issue: { path: string }) => issue.path === "cron.sessionRetention",
    );
    expect(cron).toMatchObject({ severity: "warning", line: 7 });
  });

  it("validate: a config of implemented keys gets no compat warning", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(
      '{ channels: { telegram: { botToken: "1:x", dmPolicy: "pairing" } }, gateway: { controlUi: { enabled: false } } }',
    );
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.issues).toEqual([]);
  });

  it("validate: config env vars are applied, not warned about; a channel token from env.vars is present", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(
      `{ env: { vars: { TELEGRAM_BOT_TOKEN: "1:from-vars" }, WS_BASE: "/tmp" }, agents: { defaults: { workspace: "\${WS_BASE}/ws" } }, channels: { telegram: { dmPolicy: "pairing" } } }`,
    );
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.issues).toEqual([]);
    const list = await sb.run(["channels", "list", "--json"]);
    expect(list.stdout).not.toContain("1:from-vars");
    const row = JSON.parse(list.stdout).channels.find(
      (r: { channel: string }) => r.channel === "telegram",
    );
    expect(row.auth).toEqual([
      { key: "botToken", source: "env", env: "TELEGRAM_BOT_TOKEN", present: true },
    ]);
  });

  it("status: one line per compat key naming its path, also with no gateway running", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(COMPAT_CONFIG);
    const res = await sb.run(["status", ...OFFLINE]);
    expect(res.code).toBe(0);
    for (const path of COMPAT_PATHS) {
      const lines = res.stdout.split("\n").filter((line) => line.includes(` ${path}: `));
      expect(lines, path).toHaveLength(1);
      expect(lines[0]).toContain("accepted for OpenClaw compatibility");
    }
    const json = JSON.parse((await sb.run(["status", "--json", ...OFFLINE])).stdout);
    const paths = json.configCheck.issues.map((issue: { path: string }) => issue.path);
    expect(paths.sort()).toEqual([...COMPAT_PATHS].sort());
  });
});

describe("channels without an adapter", () => {
  it("channels list shows no adapter with each configured account name, not enabled", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(COMPAT_CONFIG);
    const res = await sb.run(["channels", "list"]);
    const lines = res.stdout.trim().split("\n");
    expect(lines.find((l) => l.startsWith("mattermost/personal "))).toContain(
      "no adapter (not supported by Pincer yet)",
    );
    expect(lines.find((l) => l.startsWith("mattermost/work "))).toContain("no adapter");
    expect(lines.find((l) => l.startsWith("matrix/default "))).toContain("no adapter");
    expect(res.stdout).not.toMatch(/mattermost\/\S+ +enabled/);
    expect(res.stdout).not.toContain("d-secret");
  });

  it("channels status without a gateway lists the accounts as no adapter", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(COMPAT_CONFIG);
    const res = await sb.run(["channels", "status", ...OFFLINE]);
    expect(res.stdout).toContain("gateway not running");
    expect(res.stdout).toMatch(/mattermost\/personal +no adapter/);
    expect(res.stdout).toMatch(/mattermost\/work +no adapter/);
  });

  it("status without a gateway lists them as no adapter with their enabled account names", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(COMPAT_CONFIG);
    const res = await sb.run(["status", ...OFFLINE]);
    expect(res.stdout).toMatch(
      /^Channels {2}mattermost \(no adapter: personal\), matrix \(no adapter: default\)$/m,
    );
    const json = JSON.parse((await sb.run(["status", "--json", ...OFFLINE])).stdout);
    expect(json.channels.mattermost).toEqual({ adapter: false, accountIds: ["personal"] });
  });

  it("channels list --json: chat map, auth profiles and per-account auth[] without secrets", async () => {
    const sb = createCliSandbox({ TELEGRAM_BOT_TOKEN: "env-secret", OPS_TOKEN: "ops-secret" });
    const tokenFile = join(sb.home, "tg.token");
    writeFileSync(tokenFile, "file-secret");
    sb.writeConfig(`{
      channels: {
        telegram: {
          accounts: {
            default: {},
            ops: { botToken: { source: "env", id: "OPS_TOKEN" } },
            file: { tokenFile: ${JSON.stringify(tokenFile)} },
            gone: { tokenFile: "~/missing.token" },
            inline: { botToken: "inline-secret" },
          },
        },
        slack: { botToken: { source: "env", id: "SLACK_UNSET" } },
      },
    }`);
    const agentDir = join(sb.stateDir, "agents", "main", "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(agentDir, "auth-profiles.json"),
      JSON.stringify({
        version: 1,
        profiles: { "anthropic:work": { type: "api_key", provider: "anthropic", key: "sk-x" } },
      }),
    );
    const res = await sb.run(["channels", "list", "--json"]);
    for (const secret of ["env-secret", "ops-secret", "file-secret", "inline-secret", "sk-x"])
      expect(res.stdout).not.toContain(secret);
    const json = JSON.parse(res.stdout);
    expect(json.chat).toEqual({
      telegram: ["default", "ops", "file", "gone", "inline"],
      slack: ["default"],
    });
    expect(json.auth).toEqual([
      { id: "anthropic:work", provider: "anthropic", type: "api_key", isExternal: false },
    ]);
    const auth = (account: string) =>
      json.channels.find((row: { accountId: string }) => row.accountId === account).auth;
    expect(auth("default")).toEqual([
      { key: "botToken", source: "env", env: "TELEGRAM_BOT_TOKEN", present: true },
    ]);
    expect(auth("ops")).toEqual([
      { key: "botToken", source: "env", env: "OPS_TOKEN", present: true },
    ]);
    expect(auth("file")).toEqual([
      { key: "tokenFile", source: "file", file: tokenFile, present: true },
    ]);
    expect(auth("gone")).toEqual([
      { key: "tokenFile", source: "file", file: join(sb.home, "missing.token"), present: false },
    ]);
    expect(auth("inline")).toEqual([{ key: "botToken", source: "config", present: true }]);
    const slack = json.channels.find((row: { channel: string }) => row.channel === "slack");
    // Slack has an adapter now; its default account still lists the env fallback of its app token.
    expect(slack).toMatchObject({ adapter: true, enabled: true });
    expect(slack.auth).toEqual([
      { key: "botToken", source: "env", env: "SLACK_UNSET", present: false },
      { key: "appToken", source: "env", env: "SLACK_APP_TOKEN", present: false },
    ]);
  });
});
