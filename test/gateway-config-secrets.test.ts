// Secrets never leave through the config methods or `pincer config get`: env values, provider API keys,
// header values, bot tokens, passwords and webhook secrets come out as the redaction marker, and a
// marker sent back (config.patch / config.set / config.apply) keeps the stored secret (`${VAR}` text
// included) — the marker itself is never written.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { OpenClawConfig } from "../src/protocol/config/index.js";
import { createCliSandbox } from "./helpers/cli-sandbox.js";
import {
  createGatewaySandbox,
  type GatewaySandbox,
  type Loose,
  payloadOf as p,
} from "./helpers/gateway-sandbox.js";
import { fakeProviderConfig } from "./helpers/runtime-sandbox.js";

const SECRETS = [
  "sk-env-secret-1",
  "vars-secret-2",
  "Bearer header-secret-4",
  "custom-secret-5",
  "xoxb-bot-secret-6",
  "sign-secret-7",
  "hook-secret-8",
  "skill-env-secret-10",
  "skill-key-11",
  "remote-pass-12",
  "test-token-123",
  "sk-provider-secret-3",
];

function secretConfig(baseUrl: string): Partial<OpenClawConfig> {
  const models = fakeProviderConfig(baseUrl)!;
  const fake = models.providers!.fake!;
  return {
    env: {
      OPENAI_API_KEY: "sk-env-secret-1",
      vars: { MY_VAR: "vars-secret-2" },
    } as OpenClawConfig["env"],
    models: {
      ...models,
      providers: {
        fake: {
          ...fake,
          apiKey: "sk-provider-secret-3",
          headers: { Authorization: "Bearer header-secret-4", "X-Custom": "custom-secret-5" },
        },
      },
    },
    channels: {
      slack: {
        enabled: false,
        botToken: "xoxb-bot-secret-6",
        signingSecret: "sign-secret-7",
        webhookSecret: "hook-secret-8",
      },
    } as OpenClawConfig["channels"],
    skills: {
      entries: { weather: { env: { WEATHER_KEY: "skill-env-secret-10" }, apiKey: "skill-key-11" } },
    },
    gateway: {
      auth: { mode: "token", token: "test-token-123" },
      remote: { password: "remote-pass-12" },
    },
    // A `${VAR}` secret: redacted as its resolved value, written back as the `${VAR}` text.
    hooks: { token: `\${HOME}` },
  };
}

let box: GatewaySandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function secretBox(): Promise<GatewaySandbox> {
  return createGatewaySandbox({ config: secretConfig });
}

function expectNoSecret(value: unknown, secrets = SECRETS): void {
  const text = JSON.stringify(value);
  for (const secret of secrets) expect(text, secret).not.toContain(secret);
}

describe("config secrets over the gateway", () => {
  it("config.get, health and status never show a secret", async () => {
    box = await secretBox();
    const client = await box.connect();
    const got = p(await client.request("config.get"));
    expectNoSecret(got);
    expect(got.config.env).toEqual({
      OPENAI_API_KEY: "__REDACTED__",
      vars: { MY_VAR: "__REDACTED__" },
    });
    expect(got.config.models.providers.fake.headers.Authorization).toBe("__REDACTED__");
    expect(got.config.channels.slack).toMatchObject({ enabled: false, botToken: "__REDACTED__" });
    expect(got.config.skills.entries.weather.env.WEATHER_KEY).toBe("__REDACTED__");
    expect(got.config.models.providers.fake.models[0].maxTokens).toBe(1024);
    expect(got.config.hooks.token).toBe("__REDACTED__");
    expectNoSecret(p(await client.request("health")));
    expectNoSecret(p(await client.request("status")));
  });

  it("a patch or whole file carrying the markers keeps every stored secret", async () => {
    box = await secretBox();
    const client = await box.connect();
    const got = p(await client.request("config.get"));
    // Round trip: the redacted config back as the whole file, one unrelated change.
    const next = {
      ...got.config,
      agents: { ...got.config.agents, list: [{ id: "main" }, { id: "ops" }] },
    };
    const applied = await client.request("config.apply", {
      raw: JSON.stringify(next, null, 2),
      baseHash: got.hash,
    });
    expect(applied.ok).toBe(true);
    expectNoSecret(p(applied));
    const file = readFileSync(box.configPath, "utf8");
    expect(file).not.toContain("__REDACTED__");
    for (const secret of SECRETS) expect(file).toContain(secret);
    expect(JSON.parse(file).hooks.token).toBe(`\${HOME}`);
    expect(JSON.parse(file).agents.list).toEqual([{ id: "main" }, { id: "ops" }]);

    // A merge patch that sends markers back (OpenClaw's marker too) changes only what it names.
    const { hash } = p(await client.request("config.get"));
    const patched = await client.request("config.patch", {
      raw: JSON.stringify({
        env: { OPENAI_API_KEY: "__REDACTED__", vars: { MY_VAR: "__OPENCLAW_REDACTED__" } },
        models: {
          providers: { fake: { headers: { Authorization: "__REDACTED__", "X-New": "plain" } } },
        },
        agents: { defaults: { maxConcurrent: 2 } },
      }),
      baseHash: hash,
    });
    expect(patched.ok).toBe(true);
    expectNoSecret(p(patched));
    const after = JSON.parse(readFileSync(box.configPath, "utf8"));
    expect(after.env).toEqual({
      OPENAI_API_KEY: "sk-env-secret-1",
      vars: { MY_VAR: "vars-secret-2" },
    });
    expect(after.models.providers.fake.headers).toEqual({
      Authorization: "Bearer header-secret-4",
      "X-Custom": "custom-secret-5",
      "X-New": "plain",
    });
    expect(after.agents.defaults.maxConcurrent).toBe(2);
  });

  it("refuses a marker with no stored secret behind it (never writes the marker)", async () => {
    box = await secretBox();
    const client = await box.connect();
    const before = readFileSync(box.configPath, "utf8");
    const { hash } = p(await client.request("config.get"));
    const patch = await client.request("config.patch", {
      raw: JSON.stringify({ channels: { slack: { appToken: "__REDACTED__" } } }),
      baseHash: hash,
    });
    expect(patch.error).toMatchObject({
      code: "INVALID_REQUEST",
      details: { code: "CONFIG_INVALID" },
    });
    expect((patch.error as Loose).message).toMatch(/channels\.slack\.appToken.*redaction marker/);
    const set = await client.request("config.set", {
      raw: JSON.stringify({
        gateway: { auth: { token: "__REDACTED__" } },
        env: { NEW_KEY: "__REDACTED__" },
      }),
      baseHash: hash,
    });
    expect(set.error).toMatchObject({ code: "INVALID_REQUEST" });
    expect((set.error as Loose).message).toMatch(/env\.NEW_KEY/);
    expect(readFileSync(box.configPath, "utf8")).toBe(before);
  });
});

describe("pincer config get", () => {
  it("redacts secrets unless --show-secrets", async () => {
    const cli = createCliSandbox();
    cli.writeConfig(
      JSON.stringify({
        env: { OPENAI_API_KEY: "sk-cli-secret" },
        models: {
          providers: { p: { baseUrl: "http://x", headers: { Authorization: "Bearer cli-h" } } },
        },
        channels: { telegram: { botToken: "123:cli-bot" } },
      }),
    );
    const whole = await cli.run(["config", "get", "env", "--json"]);
    expect(JSON.parse(whole.stdout)).toEqual({ OPENAI_API_KEY: "__REDACTED__" });
    const header = await cli.run(["config", "get", "models.providers.p.headers.Authorization"]);
    expect(header.stdout.trim()).toBe("__REDACTED__");
    const bot = await cli.run(["config", "get", "channels", "--json"]);
    expect(bot.stdout).not.toContain("123:cli-bot");
    const shown = await cli.run(["config", "get", "env.OPENAI_API_KEY", "--show-secrets"]);
    expect(shown.stdout.trim()).toBe("sk-cli-secret");
  });
});
