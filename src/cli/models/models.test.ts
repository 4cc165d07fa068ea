import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CommandRun, createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { run as authAdd } from "./auth-add.js";
import { run as list } from "./list.js";
import { run as status } from "./status.js";

/** A temp home + state dir and direct `models` command calls (so a CliError rejects). */
function sandbox(extraEnv: Record<string, string> = {}) {
  const sb = createCliSandbox(extraEnv);
  mkdirSync(sb.stateDir, { recursive: true });
  return {
    agentDir: (id: string) => join(sb.stateDir, "agents", id, "agent"),
    writeConfig: (value: unknown) => sb.writeConfig(JSON.stringify(value)),
    call: (command: CommandRun, opts: Record<string, unknown>, stdin = "") =>
      sb.call(command, { opts, stdin }),
  };
}

const config = {
  agents: {
    defaults: {
      model: {
        primary: "anthropic/claude-sonnet-4-5",
        fallbacks: ["openai/gpt-5.4", "local/qwen3"],
      },
    },
    list: [{ id: "main", default: true }, { id: "work" }],
  },
  models: {
    providers: {
      local: {
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey: "sk-local-secret",
        api: "openai-completions",
        models: [{ id: "qwen3", name: "Qwen 3", contextWindow: 32768 }],
      },
    },
  },
};

describe("pincer models auth add", () => {
  it("stores the trimmed stdin secret in the agent's store (0600, agentDir 0700), prints only the id", async () => {
    const sb = sandbox();
    sb.writeConfig(config);
    const out = await sb.call(
      authAdd,
      { agent: "work", provider: "Anthropic", profileId: "team" },
      "  sk-ant-123\n",
    );
    expect(out).toMatchObject({ code: 0, stdout: "anthropic:team\n" });
    expect(out.stdout + out.stderr).not.toContain("sk-ant-123");
    const path = join(sb.agentDir("work"), "auth-profiles.json");
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      version: 1,
      profiles: { "anthropic:team": { type: "api_key", provider: "anthropic", key: "sk-ant-123" } },
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(sb.agentDir("work")).mode & 0o777).toBe(0o700);
  });

  it("refuses an empty secret, an unknown provider (with did-you-mean) and a bad --type", async () => {
    const sb = sandbox();
    sb.writeConfig(config);
    await expect(sb.call(authAdd, { provider: "openai" }, " \n")).rejects.toThrow(
      /no secret on stdin/,
    );
    await expect(sb.call(authAdd, { provider: "opnai" }, "k")).rejects.toThrow(
      /did you mean openai/,
    );
    await expect(sb.call(authAdd, { provider: "openai", type: "oauth" }, "k")).rejects.toThrow(
      /--type/,
    );
    await expect(sb.call(authAdd, { provider: "openai", agent: "nobody" }, "k")).rejects.toThrow(
      /unknown agent/,
    );
  });

  it("--type token writes a token profile; --json reports the path", async () => {
    const sb = sandbox();
    sb.writeConfig(config);
    const out = await sb.call(authAdd, { provider: "anthropic", type: "token", json: true }, "tok");
    expect(JSON.parse(out.stdout)).toMatchObject({
      agentId: "main",
      profileId: "anthropic:default",
      type: "token",
    });
  });
});

describe("pincer models status", () => {
  it("shows each agent's chain and which credential each model would use, never the secret", async () => {
    const sb = sandbox({ OPENAI_API_KEY: "sk-openai-secret" });
    sb.writeConfig(config);
    await sb.call(authAdd, { agent: "main", provider: "anthropic" }, "sk-ant-main");
    const out = await sb.call(status, {});
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("Agent main [default]");
    expect(out.stdout).toMatch(
      /primary\s+anthropic\/claude-sonnet-4-5\s+profile anthropic:default \(api_key\)/,
    );
    expect(out.stdout).toMatch(/fallback 1\s+openai\/gpt-5.4\s+env OPENAI_API_KEY \(api_key\)/);
    expect(out.stdout).toMatch(/fallback 2\s+local\/qwen3\s+config apiKey/);
    // Agent work has no anthropic profile of its own: main's is never used for it.
    expect(out.stdout).toMatch(
      /Agent work[\s\S]*anthropic\/claude-sonnet-4-5\s+no credential: set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY/,
    );
    for (const secret of ["sk-ant-main", "sk-openai-secret", "sk-local-secret"]) {
      expect(out.stdout).not.toContain(secret);
    }
  });

  it("--json --agent reports cooldowns and --check fails on a missing credential", async () => {
    const sb = sandbox();
    sb.writeConfig(config);
    await sb.call(authAdd, { agent: "work", provider: "anthropic", profileId: "a" }, "k1");
    const path = join(sb.agentDir("work"), "auth-profiles.json");
    const store = JSON.parse(readFileSync(path, "utf8"));
    store.usageStats = {
      "anthropic:a": { cooldownUntil: Date.now() + 3_600_000, lastFailureReason: "rate_limit" },
    };
    writeFileSync(path, JSON.stringify(store));
    const out = await sb.call(status, { agent: "work", json: true, check: true });
    expect(out.code).toBe(1);
    const report = JSON.parse(out.stdout);
    expect(report.agents).toHaveLength(1);
    expect(report.agents[0].models[0]).toMatchObject({
      ref: "anthropic/claude-sonnet-4-5",
      skipped: [{ id: "anthropic:a", reason: "cooldown" }],
    });
    expect(report.agents[0].models[0].credential).toBeUndefined();
    expect(report.agents[0].models[2].credential).toEqual({
      id: "config",
      kind: "api_key",
      source: "config",
    });
    expect(out.stdout).not.toContain("k1");
  });

  it("flags policy breaches and unknown models", async () => {
    const sb = sandbox({ ANTHROPIC_API_KEY: "a" });
    sb.writeConfig({
      agents: {
        defaults: { model: { primary: "anthropic/claude-sonet-4-5" } },
        list: [
          { id: "main", modelPolicy: { allow: ["azure-openai-responses/*"], onMismatch: "warn" } },
        ],
      },
    });
    const out = await sb.call(status, {});
    expect(out.stdout).toContain("did you mean anthropic/claude-sonnet-4-5");
    expect(out.stdout).toContain(
      "policy (warn): model anthropic/claude-sonet-4-5 is not in modelPolicy.allow",
    );
  });
});

describe("pincer models list", () => {
  it("lists custom and built-in models, marking those configured for agents", async () => {
    const sb = sandbox();
    sb.writeConfig(config);
    const out = await sb.call(list, { json: true });
    const rows = JSON.parse(out.stdout).models as Array<{
      ref: string;
      source?: string;
      configuredFor: string[];
    }>;
    expect(rows[0]).toMatchObject({ ref: "local/qwen3", source: "custom" });
    expect(rows.find((row) => row.ref === "local/qwen3")?.configuredFor).toEqual([
      "main:fallback",
      "work:fallback",
    ]);
    expect(rows.find((row) => row.ref === "anthropic/claude-sonnet-4-5")?.configuredFor).toEqual([
      "main:primary",
      "work:primary",
    ]);
    expect(
      rows.some((row) => row.ref === "google/gemini-2.5-pro" && row.configuredFor.length === 0),
    ).toBe(true);
  });

  it("--provider narrows the list; an unknown provider is an error", async () => {
    const sb = sandbox();
    sb.writeConfig(config);
    const out = await sb.call(list, { provider: "local" });
    expect(out.stdout).toContain("Models (1, 1 configured for agents)");
    expect(out.stdout).toMatch(
      /local\/qwen3\s+openai-completions\s+33k\s+custom\s+main:fallback, work:fallback/,
    );
    await expect(sb.call(list, { provider: "nope" })).rejects.toThrow(
      /unknown provider "nope"; known: /,
    );
    await expect(sb.call(list, { provider: "opnai" })).rejects.toThrow(/did you mean openai\?/);
  });
});
