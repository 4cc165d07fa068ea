// Every CLI config edit (agents add --model, config set, --batch-json) refuses a model the gateway
// would refuse at start: unknown provider or model, named with a did-you-mean; nothing is written.
// A model already wrong elsewhere does not block an unrelated edit.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const CONFIG = JSON.stringify({
  agents: { defaults: { model: { primary: "local/m" } }, list: [{ id: "main" }] },
  models: {
    providers: {
      local: {
        baseUrl: "http://127.0.0.1:9/v1",
        apiKey: "sk-x",
        api: "openai-completions",
        models: [{ id: "m", name: "m" }],
      },
    },
  },
});

describe("config edits check model refs", () => {
  it("agents add --model and config set refuse unknown models, keeping the file", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(CONFIG);
    for (const argv of [
      ["agents", "add", "w2", "--non-interactive", "--model", "nope"],
      ["agents", "add", "w3", "--non-interactive", "--model", "openai/gtp-5"],
      ["agents", "add", "w4", "--non-interactive", "--model", "nosuch/x"],
      ["config", "set", "agents.defaults.model.primary", "anthropic/claude-sonet-4-5"],
      [
        "config",
        "set",
        "--batch-json",
        '[{"path":"agents.list[0].model","value":"anthropic/claude-opus-9"}]',
      ],
    ]) {
      const res = await sb.run(argv);
      expect(res.code, argv.join(" ")).toBe(1);
      expect(res.stderr, argv.join(" ")).toMatch(/unknown (model|provider)/);
      expect(res.stderr).toContain("not written");
      expect(readFileSync(sb.configPath, "utf8")).toBe(CONFIG);
    }
    const ok = await sb.run(["agents", "add", "w5", "--non-interactive", "--model", "local/m"]);
    expect(ok.code).toBe(0);
  });

  it("an existing bad model does not block an unrelated edit", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(CONFIG.replace('"primary":"local/m"', '"primary":"anthropic/gone"'));
    const res = await sb.run(["config", "set", "gateway.port", "19555"]);
    expect(res.code).toBe(0);
    expect(JSON.parse(readFileSync(sb.configPath, "utf8")).gateway.port).toBe(19555);
  });

  it("config set --dry-run refuses what the write would refuse", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(CONFIG);
    const model = await sb.run([
      "config",
      "set",
      "--dry-run",
      "agents.defaults.model.primary",
      "anthropic/claude-sonet-4-5",
    ]);
    expect(model.code).toBe(1);
    expect(model.stderr).toContain("unknown model");
    const ws = await sb.run(["config", "set", "--dry-run", "agents.defaults.workspace", "~"]);
    expect(ws.code).toBe(1);
    expect(ws.stderr).toContain("is not a workspace folder");
    expect(readFileSync(sb.configPath, "utf8")).toBe(CONFIG);
  });
});
