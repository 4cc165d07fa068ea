import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { loadConfig } from "../../config/index.js";
import { envVarsForProvider } from "../../runtime/models/credentials.js";
import { AUTH_CHOICES } from "./wizard-answers.js";
import { checkCatalogModel } from "./wizard-catalog.js";

const KEY = "sk-test-onboard-0123456789";
const BOT = "123456789:AAHfakefakefakefakefakefakefake01";
const base = ["onboard", "--non-interactive", "--accept-risk"];

function authStore(stateDir: string, agent = "main") {
  const path = join(stateDir, "agents", agent, "agent", "auth-profiles.json");
  return { path, store: JSON.parse(readFileSync(path, "utf8")) };
}

describe("pincer onboard --non-interactive", () => {
  it("creates a valid config, stores the key as an auth profile (not in openclaw.json) and seeds the workspace", async () => {
    const sb = createCliSandbox();
    const argv = [...base, "--auth-choice", "openai-api-key", "--openai-api-key", KEY];
    const res = await sb.run([
      ...argv,
      "--gateway-port",
      "19123",
      "--telegram-token",
      BOT,
      "--json",
    ]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const loaded = loadConfig({ env: sb.env });
    expect(loaded.issues.filter((i) => i.severity === "error")).toEqual([]);
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).not.toContain(KEY);
    const cfg = JSON5.parse(text);
    expect(cfg.agents.defaults.model).toEqual({ primary: "openai/gpt-5.5" });
    expect(cfg.gateway).toMatchObject({ mode: "local", port: 19123, bind: "loopback" });
    expect(cfg.gateway.auth.mode).toBe("token");
    expect(cfg.gateway.auth.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cfg.channels.telegram.botToken).toBe(BOT);
    expect(cfg.wizard).toMatchObject({ lastRunCommand: "onboard", lastRunMode: "local" });
    // OpenClaw's local-onboarding defaults where nothing is set.
    expect(cfg.tools).toEqual({ profile: "coding" });
    expect(cfg.session).toEqual({ dmScope: "per-channel-peer" });
    const { path, store } = authStore(sb.stateDir);
    expect(store.profiles["openai:default"]).toEqual({
      type: "api_key",
      provider: "openai",
      key: KEY,
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const ws = join(sb.stateDir, "workspace");
    expect(existsSync(join(ws, "AGENTS.md"))).toBe(true);
    // The summary names where things went, never a secret.
    const summary = JSON.parse(res.stdout);
    expect(summary).toMatchObject({
      ok: true,
      configCreated: true,
      model: "openai/gpt-5.5",
      authProfile: { profileId: "openai:default", type: "api_key", path },
      gateway: { port: 19123, bind: "loopback", authMode: "token", url: "http://127.0.0.1:19123/" },
      channels: ["telegram"],
    });
    expect(res.stdout).not.toContain(KEY);
    expect(res.stdout).not.toContain(cfg.gateway.auth.token);
    expect(res.stdout).not.toContain(BOT);
    // The stored key is what the model status resolves for the agent.
    const status = await sb.run(["models", "status", "--json"]);
    expect(status.stdout).toContain("openai:default");
  });

  it("on an existing config changes only its keys: comments, other keys and the gateway token stay", async () => {
    const sb = createCliSandbox({ CUSTOM_API_KEY: "from-env-key" });
    sb.writeConfig(`// my notes about this setup
{
  // the gateway I share with my phone
  gateway: { port: 18800, auth: { mode: "token", token: "kept-token-0123456789abcdef" } },
  session: { dmScope: "per-peer" }, // keep
  agents: { defaults: { model: { primary: "anthropic/claude-opus-4-6", fallbacks: ["openai/gpt-5.5"] } } },
}
`);
    const res = await sb.run([
      ...base,
      "--auth-choice",
      "custom-api-key",
      "--custom-base-url",
      "http://127.0.0.1:8000/v1/",
      "--custom-model-id",
      "my-model",
      "--custom-provider-id",
      "local",
      "--secret-input-mode",
      "ref",
      "--workspace",
      "~/agent-files",
    ]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const text = readFileSync(sb.configPath, "utf8");
    for (const comment of ["// my notes about this setup", "// the gateway I share", "// keep"])
      expect(text).toContain(comment);
    const cfg = JSON5.parse(text);
    expect(cfg.session).toEqual({ dmScope: "per-peer" });
    expect(cfg.tools).toEqual({ profile: "coding" });
    expect(cfg.gateway).toMatchObject({
      port: 18800,
      auth: { mode: "token", token: "kept-token-0123456789abcdef" },
    });
    expect(cfg.agents.defaults.model).toEqual({
      primary: "local/my-model",
      fallbacks: ["openai/gpt-5.5"],
    });
    expect(cfg.agents.defaults.workspace).toBe("~/agent-files");
    expect(cfg.models.providers.local).toEqual({
      baseUrl: "http://127.0.0.1:8000/v1",
      api: "openai-completions",
      apiKey: { source: "env", provider: "default", id: "CUSTOM_API_KEY" },
      models: [{ id: "my-model", name: "my-model" }],
    });
    expect(text).not.toContain("from-env-key");
    expect(loadConfig({ env: sb.env }).issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(existsSync(join(sb.home, "agent-files", "AGENTS.md"))).toBe(true);
    expect(existsSync(`${sb.configPath}.bak`)).toBe(true);
    expect(res.stdout).toContain("backup:");
  });

  it("ref mode stores an env reference for a built-in provider; plaintext takes the env key when no flag", async () => {
    const sb = createCliSandbox({ ANTHROPIC_API_KEY: "sk-ant-env" });
    const ref = await sb.run([...base, "--auth-choice", "apiKey", "--secret-input-mode", "ref"]);
    expect(ref.code).toBe(0);
    expect(authStore(sb.stateDir).store.profiles["anthropic:default"]).toEqual({
      type: "api_key",
      provider: "anthropic",
      keyRef: { source: "env", id: "ANTHROPIC_API_KEY" },
    });
    const plain = await sb.run([
      ...base,
      "--auth-choice",
      "apiKey",
      "--model",
      "anthropic/claude-sonnet-4-6",
    ]);
    expect(plain.code).toBe(0);
    expect(authStore(sb.stateDir).store.profiles["anthropic:default"].key).toBe("sk-ant-env");
    const cfg = JSON5.parse(readFileSync(sb.configPath, "utf8"));
    expect(cfg.agents.defaults.model).toEqual({ primary: "anthropic/claude-sonnet-4-6" });
  });

  it("keeps a gateway token given as a SecretRef; stores a custom endpoint's key as its auth profile", async () => {
    const sb = createCliSandbox({ GW_TOKEN: "from-the-env-0123456789" });
    sb.writeConfig(`{
  gateway: { auth: { mode: "token", token: { source: "env", id: "GW_TOKEN" } } },
  agents: { list: [{ id: "main", model: "anthropic/claude-opus-4-6" }] },
}
`);
    const res = await sb.run([
      ...base,
      "--custom-base-url",
      "https://llm.example.com/v1",
      "--custom-model-id",
      "big-one",
      "--custom-api-key",
      "sk-custom-0123",
      "--custom-compatibility",
      "anthropic",
    ]);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const cfg = JSON5.parse(readFileSync(sb.configPath, "utf8"));
    expect(cfg.gateway.auth).toEqual({ mode: "token", token: { source: "env", id: "GW_TOKEN" } });
    expect(cfg.models.providers.custom).toMatchObject({ api: "anthropic-messages" });
    expect(cfg.models.providers.custom.apiKey).toBeUndefined();
    expect(authStore(sb.stateDir).store.profiles["custom:default"]).toEqual({
      type: "api_key",
      provider: "custom",
      key: "sk-custom-0123",
    });
    // The roster entry's own model wins over agents.defaults.model: the summary says so.
    expect(res.stdout).toContain(
      'note:      agent main sets its own model ("anthropic/claude-opus-4-6"), which wins',
    );
    const status = await sb.run(["models", "status", "--json"]);
    expect(status.code).toBe(0);
  });

  const refusals: Array<[string, string[], RegExp]> = [
    [
      "without --accept-risk",
      ["onboard", "--non-interactive", "--auth-choice", "skip"],
      /requires --accept-risk/,
    ],
    [
      "an auth choice Pincer lacks",
      [...base, "--auth-choice", "setup-token"],
      /--auth-choice "setup-token" is not supported.*openai-api-key/,
    ],
    ["remote mode", [...base, "--mode", "remote"], /--mode "remote" is not supported/],
    ["the import flow", [...base, "--flow", "import"], /--flow "import" is not supported/],
    [
      "bind auto",
      [...base, "--gateway-bind", "auto"],
      /--gateway-bind "auto" is not supported.*loopback, lan, tailnet/,
    ],
    ["auth none", [...base, "--gateway-auth", "none"], /--gateway-auth "none" is not supported/],
    ["a bad port", [...base, "--gateway-port", "70000"], /--gateway-port "70000"/],
    [
      "an unknown model",
      [...base, "--auth-choice", "openai-api-key", "--openai-api-key", KEY, "--model", "gpt-5.55"],
      /unknown model "openai\/gpt-5\.55"; did you mean openai\/gpt-5\.5/,
    ],
    [
      "no key anywhere",
      [...base, "--auth-choice", "openai-api-key"],
      /no API key: pass --openai-api-key or set OPENAI_API_KEY/,
    ],
    [
      "ref mode without the env var",
      [...base, "--auth-choice", "xai-api-key", "--secret-input-mode", "ref"],
      /XAI_API_KEY, which is not set/,
    ],
    [
      "a malformed bot token",
      [...base, "--telegram-token", "nope"],
      /--telegram-token: that does not look like a Telegram bot token/,
    ],
    [
      "custom without a model id",
      [...base, "--auth-choice", "custom-api-key", "--custom-base-url", "http://x"],
      /--custom-model-id is required/,
    ],
    [
      "an unknown compatibility",
      [
        ...base,
        "--custom-base-url",
        "http://x",
        "--custom-model-id",
        "m",
        "--custom-compatibility",
        "gemini",
      ],
      /--custom-compatibility "gemini": expected one of openai, openai-responses, anthropic/,
    ],
    ["--reset", [...base, "--reset"], /--reset is not supported/],
    [
      "no terminal and no --non-interactive",
      ["onboard"],
      /not one\. For scripts use: pincer onboard --non-interactive --accept-risk/,
    ],
    [
      "wizard flags without --non-interactive",
      ["onboard", "--auth-choice", "apiKey"],
      /--auth-choice: only with --non-interactive/,
    ],
  ];
  for (const [what, argv, message] of refusals) {
    it(`refuses ${what} with a usage error naming it, writing nothing`, async () => {
      const sb = createCliSandbox();
      const res = await sb.run(argv);
      expect(res.stderr).toMatch(message);
      expect(res.code).toBe(2);
      expect(existsSync(sb.stateDir)).toBe(false);
    });
  }

  it("keeps the auth-choice table in step with the catalog and the credential env vars", () => {
    for (const [name, choice] of Object.entries(AUTH_CHOICES)) {
      expect(envVarsForProvider(choice.provider), name).toContain(choice.envVar);
      expect(checkCatalogModel(choice.provider, choice.defaultModel), name).toEqual({ ok: true });
    }
  });
});

describe("pincer configure without a terminal", () => {
  it("needs an existing config, a terminal and known sections", async () => {
    const sb = createCliSandbox();
    const none = await sb.run(["configure"]);
    expect(none.stderr).toMatch(
      /no config at ~\/\.openclaw\/openclaw\.json yet: run pincer onboard first/,
    );
    sb.writeConfig("{}\n");
    const bad = await sb.run(["configure", "--section", "model", "--section", "web"]);
    expect(bad.stderr).toMatch(
      /invalid --section: web; expected one of: model, workspace, gateway, channels/,
    );
    expect(bad.code).toBe(2);
    const noTty = await sb.run(["configure", "--section", "gateway"]);
    expect(noTty.stderr).toMatch(
      /asks its questions on a terminal.*pincer onboard --non-interactive/,
    );
    expect(readFileSync(sb.configPath, "utf8")).toBe("{}\n");
  });
});
