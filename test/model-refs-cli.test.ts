// Unknown models and providers are config errors with a did-you-mean (`config validate`, `status`),
// `models.mode: "replace"` with no model configured is one too, and `status` puts an invalid config first.
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayConfigError, startGateway } from "../src/gateway/index.js";
import { type CliSandbox, createCliSandbox } from "./helpers/cli-sandbox.js";

let sb: CliSandbox | undefined;
afterEach(() => {
  if (sb) rmSync(sb.home, { recursive: true, force: true });
  sb = undefined;
});

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const provider = {
  baseUrl: "http://127.0.0.1:9/v1",
  apiKey: "sk-test",
  api: "openai-completions",
  models: [{ id: "m1", name: "m1" }],
};

describe("model refs in the config", () => {
  it("an unknown provider is an error at its path, with a did-you-mean", async () => {
    sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({
        models: { providers: { acme: provider } },
        agents: { defaults: { model: "acmee/m1" }, list: [{ id: "main" }] },
      }),
    );
    const res = await sb.run(["config", "validate"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(
      /agents\.defaults\.model\s+unknown provider "acmee".*did you mean acme\/m1\?/,
    );
  });

  it("an unknown built-in model is an error with close matches", async () => {
    sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({
        agents: { list: [{ id: "main", model: "anthropic/claude-opus-4-7x" }] },
      }),
    );
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.valid).toBe(false);
    const issue = json.issues.find((i: { path: string }) => i.path === "agents.list[0].model");
    expect(issue?.message).toMatch(/unknown model anthropic\/claude-opus-4-7x.*did you mean/);
  });

  it("names each unknown model where the file writes it: legacy agent block, entries, fallbacks", async () => {
    sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({
        models: { providers: { acme: provider } },
        agent: { model: "acme/m1", modelFallbacks: ["acme/m2"] },
        agents: {
          entries: {
            Work: { model: { primary: "acme/m11", fallbacks: ["anthropic/claude-opus-4-7x"] } },
            home: { model: "m1" },
          },
        },
      }),
    );
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.valid).toBe(false);
    const byPath = Object.fromEntries(
      json.issues.map((i: { path: string; message: string }) => [i.path, i.message]),
    );
    expect(byPath["agent.modelFallbacks[0]"]).toMatch(
      /unknown model acme\/m2.*did you mean acme\/m1\?/,
    );
    expect(byPath["agents.entries.Work.model.primary"]).toMatch(
      /unknown model acme\/m11.*did you mean acme\/m1\?/,
    );
    expect(byPath["agents.entries.Work.model.fallbacks[0]"]).toMatch(
      /unknown model anthropic\/claude-opus-4-7x.*did you mean/,
    );
    expect(byPath["agents.entries.home.model"]).toMatch(
      /unknown model anthropic\/m1.*did you mean acme\/m1\?/,
    );
    expect(Object.keys(byPath)).not.toContain("agent.model.fallbacks[0]");
  });

  it("pincer gateway run refuses an unknown model with its issues, not a crash dump", async () => {
    sb = createCliSandbox();
    const port = await closedPort();
    sb.writeConfig(
      JSON.stringify({
        gateway: { port, auth: { mode: "token", token: "secret-token-123" } },
        models: { providers: { acme: { ...provider, apiKey: "sk-very-secret" } } },
        agent: { model: "acme/m2" },
      }),
    );
    const res = await sb.run(["gateway", "run"]);
    expect(res.code).toBe(1);
    const out = `${res.stdout}${res.stderr}`;
    expect(out).toMatch(/agent\.model\s+unknown model acme\/m2.*did you mean acme\/m1\?/);
    expect(out).not.toContain("sk-very-secret");
    expect(out).not.toContain("secret-token-123");
  });

  it("config set and agents add refuse an unknown model before writing the file", async () => {
    sb = createCliSandbox();
    const text = JSON.stringify({ models: { providers: { acme: provider } } });
    sb.writeConfig(text);
    const set = await sb.run(["config", "set", "agent.model", "acme/m2"]);
    expect(set.code).toBe(1);
    expect(`${set.stdout}${set.stderr}`).toMatch(/agent\.model.*unknown model acme\/m2.*acme\/m1/);
    const add = await sb.run(["agents", "add", "work", "--non-interactive", "--model", "acmee/m1"]);
    expect(add.code).not.toBe(0);
    expect(`${add.stdout}${add.stderr}`).toMatch(/unknown provider "acmee".*did you mean acme\/m1/);
    expect(readFileSync(sb.configPath, "utf8")).toBe(text);
    expect((await sb.run(["config", "set", "agent.model", "acme/m1"])).code).toBe(0);
  });

  it('models.mode "replace" with no model configured is an error, not the built-in default', async () => {
    sb = createCliSandbox();
    sb.writeConfig(JSON.stringify({ models: { mode: "replace", providers: { acme: provider } } }));
    const res = await sb.run(["config", "validate"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/models\.mode is "replace" but no model is configured.*acme\/m1/);
  });

  it("a configured model validates", async () => {
    sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({
        models: { mode: "replace", providers: { acme: provider } },
        agents: { defaults: { model: "acme/m1" } },
      }),
    );
    expect((await sb.run(["config", "validate"])).code).toBe(0);
  });

  it("status with an invalid config says so first, with the issues", async () => {
    sb = createCliSandbox();
    const port = await closedPort();
    sb.writeConfig(
      JSON.stringify({
        gateway: { port },
        agents: { defaults: { model: "anthropicc/claude-opus-4-6" } },
      }),
    );
    const res = await sb.run(["status"]);
    const lines = res.stdout.split("\n");
    expect(lines[0]).toMatch(/^Config is invalid: /);
    expect(res.stdout).toMatch(
      /unknown provider "anthropicc".*did you mean anthropic\/claude-opus-4-6/,
    );
    const json = JSON.parse((await sb.run(["status", "--json"])).stdout);
    expect(json.configCheck.valid).toBe(false);
  });

  it("status with a schema error also shows it first", async () => {
    sb = createCliSandbox();
    const port = await closedPort();
    sb.writeConfig(
      JSON.stringify({ gateway: { port }, agents: { defaults: { timeoutSeconds: "x" } } }),
    );
    const res = await sb.run(["status"]);
    expect(res.stdout.split("\n")[0]).toMatch(/^Config is invalid: /);
    expect(res.stdout).toContain("agents.defaults.timeoutSeconds");
  });

  it("gateway start refuses an unknown model, naming it with a did-you-mean", async () => {
    sb = createCliSandbox();
    sb.writeConfig(
      JSON.stringify({
        models: { providers: { acme: provider } },
        agents: {
          list: [
            { id: "main", model: "acme/m1" },
            { id: "work", model: "acm/m1" },
          ],
        },
      }),
    );
    const started = startGateway({ env: sb.env, port: 0, watchConfig: false });
    const err = await started.then(
      async (gw) => {
        await gw.close("unexpected");
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GatewayConfigError);
    const issues = (err as GatewayConfigError).loaded.issues;
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: "agents.list[1].model",
        message: expect.stringMatching(/unknown provider "acm".*did you mean acme\/m1\?/),
      }),
    );
  });
});
