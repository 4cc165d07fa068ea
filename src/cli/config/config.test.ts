import { readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const BASE = `{
  // gateway settings
  gateway: { port: 18789 /* default */ },
  agents: { list: [{ id: "main", model: "anthropic/claude-sonnet-4-5" }] },
}
`;

describe("pincer config", () => {
  it("file prints the active path, honouring --profile", async () => {
    const sb = createCliSandbox();
    expect((await sb.run(["config", "file"])).stdout.trim()).toBe(sb.configPath);
    const sb2 = createCliSandbox();
    delete (sb2.env as Record<string, string | undefined>).OPENCLAW_STATE_DIR;
    const res = await sb2.run(["--profile", "lab", "config", "file", "--json"]);
    expect(JSON.parse(res.stdout)).toMatchObject({
      path: `${sb2.home}/.openclaw-lab/openclaw.json`,
      exists: false,
    });
  });

  it("get prints values; exit 1 for an unset path", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(BASE);
    expect((await sb.run(["config", "get", "agents.list[0].model"])).stdout).toBe(
      "anthropic/claude-sonnet-4-5\n",
    );
    expect((await sb.run(["config", "get", "gateway"])).stdout).toBe('{\n  "port": 18789\n}\n');
    const missing = await sb.run(["config", "get", "gateway.bind"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("gateway.bind is not set");
  });

  it("set validates, keeps comments, writes a backup and mode 0600", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(BASE);
    const res = await sb.run(["config", "set", "gateway.port", "19001"]);
    expect(res.code).toBe(0);
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).toContain("// gateway settings");
    expect(text).toContain("port: 19001 /* default */");
    expect(readFileSync(`${sb.configPath}.bak`, "utf8")).toBe(BASE);
    expect(statSync(sb.configPath).mode & 0o777).toBe(0o600);
    expect((await sb.run(["config", "get", "gateway.port", "--json"])).stdout).toBe("19001\n");
    await sb.run(["config", "set", "agents.defaults.model", "openai/gpt-5.2"]);
    expect((await sb.run(["config", "get", "agents.defaults.model"])).stdout).toBe(
      "openai/gpt-5.2\n",
    );
    await sb.run(["config", "set", "agents.list[0].name", "123", "--string"]);
    expect((await sb.run(["config", "get", "agents.list[0].name", "--json"])).stdout).toBe(
      '"123"\n',
    );
  });

  it("set refuses a value that makes the config invalid and leaves the file alone", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(BASE);
    const res = await sb.run(["config", "set", "gateway.port", '"high"']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("gateway.port");
    expect(res.stderr).toContain("not written");
    expect(readFileSync(sb.configPath, "utf8")).toBe(BASE);
  });

  it("unset removes a key", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(BASE);
    expect((await sb.run(["config", "unset", "gateway.port"])).code).toBe(0);
    expect((await sb.run(["config", "get", "gateway.port"])).code).toBe(1);
    expect(readFileSync(sb.configPath, "utf8")).toContain("// gateway settings");
  });

  it("validate lists every problem with file and line, exit 1; --json has the issues", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(`{
  gateway: { port: "18789", bind: "loopbak" },
  agents: { list: [{ id: "a", agentDir: "/same" }, { id: "b", agentDir: "/same" }] },
  bindngs: [],
}
`);
    const res = await sb.run(["config", "validate"]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain("openclaw.json:2");
    expect(res.stdout).toContain("gateway.port");
    expect(res.stdout).toContain('did you mean "loopback"');
    expect(res.stdout).toContain('did you mean "bindings"');
    expect(res.stdout).toContain("agents.list[1].agentDir");
    const json = JSON.parse((await sb.run(["config", "validate", "--json"])).stdout);
    expect(json.valid).toBe(false);
    expect(
      json.issues.filter((i: { severity: string }) => i.severity === "error").length,
    ).toBeGreaterThanOrEqual(4);
    expect(json.issues.every((i: { line?: number }) => typeof i.line === "number")).toBe(true);
  });

  it("validate passes a missing config (all defaults) and a good one", async () => {
    const sb = createCliSandbox();
    expect((await sb.run(["config", "validate"])).code).toBe(0);
    sb.writeConfig(BASE);
    expect((await sb.run(["config", "validate", "--json"])).stdout).toContain('"valid": true');
  });
});

describe("pincer program", () => {
  it("prints help and version with exit 0, usage errors with exit 2", async () => {
    const sb = createCliSandbox();
    const help = await sb.run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("agents");
    expect((await sb.run(["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect((await sb.run(["config", "set", "only-path"])).code).toBe(2);
    expect((await sb.run(["nope"])).code).toBe(2);
  });
});
