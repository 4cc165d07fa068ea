import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../lib/logger.js";
import type { PluginsConfig } from "../protocol/config/index.js";
import { loadPlugins } from "./loader.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function sandbox() {
  const root = mkdtempSync(join(tmpdir(), "pincer-plugin-loader-"));
  dirs.push(root);
  const stateDir = join(root, "state");
  mkdirSync(stateDir);
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
    return join(root, path);
  };
  const load = (config: PluginsConfig) =>
    loadPlugins({ config, stateDir, home: root, baseDir: root, logger: silentLogger });
  return { root, stateDir, write, load };
}

const TOOL = `{ name: "hello", description: "d", parameters: { type: "object" }, execute: async () => ({ content: [], details: {} }) }`;

describe("loadPlugins", () => {
  it("finds file, folder (manifest) and global plugins; applies deny, allow and entries; passes config", async () => {
    const box = sandbox();
    const seen = box.write("seen.json", "{}");
    const file = box.write(
      "alpha.mjs",
      `import { writeFileSync } from "node:fs";
       export default (api) => { writeFileSync(${JSON.stringify(seen)}, JSON.stringify(api.pluginConfig)); api.on("agent_end", () => {}); };`,
    );
    box.write(
      "beta/openclaw.plugin.json",
      JSON.stringify({ id: "beta", name: "Beta", main: "main.mjs" }),
    );
    box.write("beta/main.mjs", `export function register(api) { api.registerTool(${TOOL}); }`);
    box.write("state/extensions/gamma.mjs", "export default () => {};");
    box.write("state/extensions/delta.mjs", "export default () => {};");
    const registry = await box.load({
      load: { paths: [file, "beta", "missing"] },
      deny: ["delta"],
      entries: { alpha: { config: { greeting: "hi" } }, gamma: { enabled: false }, ghost: {} },
    });
    const byId = Object.fromEntries(registry.plugins.map((p) => [p.id, p]));
    expect(byId.alpha).toMatchObject({ status: "loaded", hooks: ["agent_end"], origin: "config" });
    expect(byId.beta?.error).toBeUndefined();
    expect(byId.beta).toMatchObject({ status: "loaded", name: "Beta", tools: ["hello"] });
    expect(byId.missing).toMatchObject({ status: "error", error: "not found" });
    expect(byId.gamma).toMatchObject({
      status: "disabled",
      origin: "global",
      error: "plugins.entries.gamma.enabled is false",
    });
    expect(byId.delta).toMatchObject({ status: "disabled", error: "denied by plugins.deny" });
    expect(byId.ghost).toMatchObject({ status: "error", origin: "entry" });
    expect(JSON.parse((await import("node:fs")).readFileSync(seen, "utf8"))).toEqual({
      greeting: "hi",
    });
    const allowOnly = await box.load({ load: { paths: [file, "beta"] }, allow: ["beta"] });
    expect(allowOnly.plugins.find((p) => p.id === "alpha")).toMatchObject({
      status: "disabled",
      error: "not in plugins.allow",
    });
    const off = await box.load({ enabled: false, load: { paths: [file] } });
    expect(off.plugins.map((p) => p.status)).toEqual(["disabled", "disabled", "disabled"]);
  });

  it("drops the registrations of a plugin whose register throws; refuses clashing names", async () => {
    const box = sandbox();
    const bad = box.write(
      "bad.mjs",
      `export default { register(api) { api.registerTool(${TOOL}); api.on("agent_end", () => {}); throw new Error("nope"); } };`,
    );
    const clash = box.write(
      "clash.mjs",
      `export default (api) => {
         api.registerTool({ ...${TOOL}, name: "exec" });
         api.registerTool({ ...${TOOL}, name: "bash" });
         api.registerTool(${TOOL});
         api.on("not_a_hook", () => {});
         api.registerCommand({ name: "1bad", handler: () => ({ text: "" }) });
         api.registerGatewayMethod("x.y", () => {});
         api.registerGatewayMethod("x.y", () => {});
       };`,
    );
    const copy = box.write("again/clash.mjs", "export default () => {};");
    const none = box.write("none.mjs", "export const nothing = 1;");
    const registry = await box.load({ load: { paths: [bad, clash, copy, none] } });
    const [badRecord, clashRecord, copyRecord, noneRecord] = registry.plugins;
    expect(badRecord).toMatchObject({ status: "error", error: "nope", tools: [], hooks: [] });
    expect(clashRecord).toMatchObject({ status: "loaded", tools: ["hello"], methods: ["x.y"] });
    expect(clashRecord?.diagnostics).toHaveLength(5);
    expect(clashRecord?.diagnostics.join("\n")).toMatch(/"exec" is the name of a built-in tool/);
    expect(copyRecord).toMatchObject({ status: "disabled" });
    expect(copyRecord?.error).toMatch(/overridden by the plugin of the same id/);
    expect(noneRecord).toMatchObject({
      status: "error",
      error: "the module exports no register function",
    });
    expect(registry.tools.map((t) => `${t.pluginId}:${t.names.join()}`)).toEqual(["clash:hello"]);
    expect(registry.hooks).toHaveLength(0);
  });
});
