// `pincer config set` with OpenClaw's flags through the real argv parser: --strict-json, --merge,
// --replace, --dry-run and --batch-json/--batch-file, all through the comment-keeping editor.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";

const BASE = `{
  // gateway settings
  gateway: { port: 18789 /* default */ },
  agents: {
    defaults: { models: { "openai/gpt-5.4": { alias: "gpt" } } },
    list: [{ id: "main" }],
  },
}
`;

function sandbox() {
  const sb = createCliSandbox();
  sb.writeConfig(BASE);
  const get = async (path: string) =>
    JSON.parse((await sb.run(["config", "get", path, "--json"])).stdout);
  return { sb, get, text: () => readFileSync(sb.configPath, "utf8") };
}

describe("pincer config set (OpenClaw's flags)", () => {
  it("--strict-json requires JSON/JSON5; without it a bare word is still a string", async () => {
    const { sb, get, text } = sandbox();
    const bad = await sb.run(["config", "set", "gateway.bind", "loopback", "--strict-json"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--strict-json: the value for gateway.bind is not valid JSON/JSON5",
    );
    expect(text()).toBe(BASE);
    expect(
      (await sb.run(["config", "set", "gateway.bind", '"loopback"', "--strict-json"])).code,
    ).toBe(0);
    expect(await get("gateway.bind")).toBe("loopback");
    expect((await sb.run(["config", "set", "gateway.port", "19001", "--strict-json"])).code).toBe(
      0,
    );
    expect(await get("gateway.port")).toBe(19001);
    expect((await sb.run(["config", "set", "agents.list[0].name", "Ana"])).code).toBe(0);
    expect(await get("agents.list[0].name")).toBe("Ana");
    const both = await sb.run(["config", "set", "gateway.bind", "x", "--string", "--strict-json"]);
    expect(both.code).toBe(2);
  });

  it("--merge keeps the keys already there (and comments); --replace sets the object whole", async () => {
    const { sb, get, text } = sandbox();
    const merged = await sb.run([
      "config",
      "set",
      "agents.defaults.models",
      '{"anthropic/claude-sonnet-4-5": {}}',
      "--strict-json",
      "--merge",
    ]);
    expect(merged.code).toBe(0);
    expect(await get("agents.defaults.models")).toEqual({
      "openai/gpt-5.4": { alias: "gpt" },
      "anthropic/claude-sonnet-4-5": {},
    });
    expect(text()).toContain("// gateway settings");
    const deep = await sb.run([
      "config",
      "set",
      "agents.defaults.models",
      '{"openai/gpt-5.4": {"params": {"temperature": 0.2}}}',
      "--merge",
    ]);
    expect(deep.code).toBe(0);
    expect(await get('agents.defaults.models["openai/gpt-5.4"]')).toEqual({
      alias: "gpt",
      params: { temperature: 0.2 },
    });
    await sb.run(["config", "set", "agents.defaults.models", '{"x/y": {}}', "--replace"]);
    expect(await get("agents.defaults.models")).toEqual({ "x/y": {} });
    const notObject = await sb.run(["config", "set", "gateway.port", "1", "--merge"]);
    expect(notObject.code).toBe(2);
    expect(notObject.stderr).toContain("--merge: the value for gateway.port must be an object");
    expect((await sb.run(["config", "set", "a", "{}", "--merge", "--replace"])).code).toBe(2);
  });

  it("--dry-run validates and writes nothing; an invalid change is refused the same way", async () => {
    const { sb, text } = sandbox();
    const ok = await sb.run(["config", "set", "gateway.port", "19001", "--dry-run", "--json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      ok: true,
      dryRun: true,
      paths: ["gateway.port"],
    });
    const bad = await sb.run(["config", "set", "gateway.port", '"high"', "--dry-run"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("gateway.port");
    expect(bad.stderr).toContain("dry run: the change would leave");
    expect(text()).toBe(BASE);
  });

  it("--batch-json / --batch-file write several values in one validated write", async () => {
    const { sb, get, text } = sandbox();
    const batch = JSON.stringify([
      { path: "gateway.port", value: 19002 },
      { path: "gateway.bind", value: "loopback" },
    ]);
    expect((await sb.run(["config", "set", "--batch-json", batch])).code).toBe(0);
    expect(await get("gateway")).toEqual({ port: 19002, bind: "loopback" });
    const half = JSON.stringify([
      { path: "gateway.port", value: 1 },
      { path: "gateway.bind", value: "nowhere" },
    ]);
    const refused = await sb.run(["config", "set", "--batch-json", half]);
    expect(refused.code).toBe(1);
    expect(await get("gateway.port")).toBe(19002);
    const file = join(sb.home, "batch.json");
    writeFileSync(file, JSON.stringify([{ path: "agents.list[0].name", value: "Bo" }]));
    expect((await sb.run(["config", "set", "--batch-file", file])).code).toBe(0);
    expect(await get("agents.list[0].name")).toBe("Bo");
    expect(text()).toContain("// gateway settings");
    for (const argv of [
      ["--batch-json", "[]"],
      ["--batch-json", '[{"path": "gateway.port"}]'],
      ["gateway.port", "1", "--batch-json", batch],
      ["only-path"],
    ]) {
      expect((await sb.run(["config", "set", ...argv])).code).toBe(2);
    }
  });
});
