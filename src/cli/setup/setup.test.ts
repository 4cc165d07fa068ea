import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import JSON5 from "json5";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { WORKSPACE_TEMPLATES } from "../../agents/templates.js";
import { loadConfig } from "../../config/index.js";
import { run } from "./setup.js";

const ALL_CREATED = [...WORKSPACE_TEMPLATES.map((t) => t.name), "memory/"];

/** `pincer setup` called directly (so a CliError rejects), in a throwaway state dir. */
function setupSandbox() {
  const sb = createCliSandbox();
  const setup = (opts: { workspace?: string; agent?: string; json?: boolean } = {}) =>
    sb.call(run, { opts });
  return { ...sb, setup };
}

describe("pincer setup", () => {
  it("creates a commented, valid config and seeds the default workspace; a re-run does nothing", async () => {
    const sb = setupSandbox();
    const first = await sb.setup();
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        "config:    created ~/.openclaw/openclaw.json",
        "workspace: ~/.openclaw/workspace (agent main, created)",
        `created:   ${ALL_CREATED.join(", ")}`,
        "next: edit USER.md and SOUL.md, or let the agent do it on its first run",
        "",
      ].join("\n"),
    );
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).toContain("// Pincer config");
    expect(text).toContain('// workspace: "~/.openclaw/workspace",');
    expect(JSON5.parse(text)).toEqual({ agents: { defaults: {} } });
    expect(loadConfig({ env: sb.env }).issues).toEqual([]);
    const ws = join(sb.stateDir, "workspace");
    for (const template of WORKSPACE_TEMPLATES)
      expect(readFileSync(join(ws, template.name), "utf8")).toBe(template.content);
    expect(existsSync(join(ws, "memory"))).toBe(true);

    const second = await sb.setup();
    expect(second.stdout).toBe(
      [
        "config:    ~/.openclaw/openclaw.json (exists)",
        "workspace: ~/.openclaw/workspace (agent main)",
        "nothing to do: the config and the workspace files already exist",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await sb.setup({ json: true })).stdout);
    expect(json).toMatchObject({
      configCreated: false,
      configKeySet: null,
      agentId: "main",
      workspace: ws,
      workspaceCreated: false,
      created: [],
    });
    expect(readFileSync(sb.configPath, "utf8")).toBe(text);
    expect(existsSync(`${sb.configPath}.bak`)).toBe(false);
  });

  it("keeps edited workspace files byte for byte", async () => {
    const sb = setupSandbox();
    const ws = join(sb.stateDir, "workspace");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "AGENTS.md"), "my own rules");
    const res = JSON.parse((await sb.setup({ json: true })).stdout);
    expect(res.skipped).toEqual(["AGENTS.md"]);
    expect(res.created).not.toContain("BOOTSTRAP.md");
    expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toBe("my own rules");
  });

  it("--workspace on a fresh install writes agents.defaults.workspace into the new config", async () => {
    const sb = setupSandbox();
    const target = join(sb.home, "elsewhere", "ws");
    const res = JSON.parse((await sb.setup({ workspace: target, json: true })).stdout);
    expect(res).toMatchObject({
      configCreated: true,
      configKeySet: "agents.defaults.workspace",
      workspace: target,
      created: ALL_CREATED,
    });
    expect(JSON5.parse(readFileSync(sb.configPath, "utf8"))).toEqual({
      agents: { defaults: { workspace: target } },
    });
    expect(existsSync(join(target, "SOUL.md"))).toBe(true);
  });

  it("--workspace on an existing config without a roster edits agents.defaults, keeping comments", async () => {
    const sb = setupSandbox();
    sb.writeConfig(`{\n  // my gateway\n  gateway: { port: 18789 },\n}\n`);
    const res = await sb.setup({ workspace: "~/ws-main" });
    expect(res.stdout).toContain(
      "config:    set agents.defaults.workspace in ~/.openclaw/openclaw.json",
    );
    expect(res.stdout).toContain("backup:    ~/.openclaw/openclaw.json.bak");
    expect(res.stdout).toContain("workspace: ~/ws-main (agent main, created)");
    const text = readFileSync(sb.configPath, "utf8");
    expect(text).toContain("// my gateway");
    expect(JSON5.parse(text).agents.defaults.workspace).toBe("~/ws-main");
    expect(existsSync(join(sb.home, "ws-main", "AGENTS.md"))).toBe(true);
    const again = await sb.setup({ workspace: "~/ws-main" });
    expect(again.stdout).toContain("nothing to do");
    expect(readFileSync(sb.configPath, "utf8")).toBe(text);
  });

  it("with a roster, edits the chosen agent's entry (default agent unless --agent)", async () => {
    const sb = setupSandbox();
    sb.writeConfig(`{ agents: { list: [{ id: "home", default: true }, { id: "work" }] } }\n`);
    const work = JSON.parse(
      (await sb.setup({ agent: "work", workspace: "~/w", json: true })).stdout,
    );
    expect(work).toMatchObject({ agentId: "work", configKeySet: "agents.list[1].workspace" });
    const home = JSON.parse((await sb.setup({ workspace: "~/h", json: true })).stdout);
    expect(home).toMatchObject({ agentId: "home", configKeySet: "agents.list[0].workspace" });
    const list = JSON5.parse(readFileSync(sb.configPath, "utf8")).agents.list;
    expect(list).toEqual([
      { id: "home", default: true, workspace: "~/h" },
      { id: "work", workspace: "~/w" },
    ]);
    expect(existsSync(join(sb.home, "w", "BOOTSTRAP.md"))).toBe(true);
  });

  it("edits agents.entries.<id> when the roster is keyed by id", async () => {
    const sb = setupSandbox();
    sb.writeConfig(`{ agents: { entries: { solo: { name: "Solo" } } } }\n`);
    const res = JSON.parse((await sb.setup({ workspace: "~/solo", json: true })).stdout);
    expect(res.configKeySet).toBe("agents.entries.solo.workspace");
    expect(JSON5.parse(readFileSync(sb.configPath, "utf8")).agents.entries.solo).toEqual({
      name: "Solo",
      workspace: "~/solo",
    });
  });

  it("refuses an unknown --agent and writes nothing", async () => {
    const sb = setupSandbox();
    await expect(sb.setup({ agent: "ghost" })).rejects.toThrow(
      'agent "ghost" is not configured in',
    );
    expect(existsSync(sb.configPath)).toBe(false);
  });

  it("honours skipBootstrap: the folder is created, no files", async () => {
    const sb = setupSandbox();
    sb.writeConfig(`{ agents: { defaults: { skipBootstrap: true } } }\n`);
    const res = await sb.setup();
    expect(res.stdout).toContain("files:     not seeded (skipBootstrap is set)");
    expect(existsSync(join(sb.stateDir, "workspace"))).toBe(true);
    expect(existsSync(join(sb.stateDir, "workspace", "AGENTS.md"))).toBe(false);
  });
});

describe("pincer agents add seeds the workspace", () => {
  it("creates the templates in the new agent's workspace and lists them", async () => {
    const sb = createCliSandbox();
    const res = await sb.run(["agents", "add", "work"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`files:     ${ALL_CREATED.join(", ")}`);
    const ws = join(sb.stateDir, "workspace-work");
    for (const template of WORKSPACE_TEMPLATES)
      expect(readFileSync(join(ws, template.name), "utf8")).toBe(template.content);

    const pre = join(sb.home, "prepared");
    mkdirSync(pre);
    writeFileSync(join(pre, "SOUL.md"), "kept");
    const json = JSON.parse(
      (await sb.run(["agents", "add", "prep", "--workspace", pre, "--json"])).stdout,
    );
    expect(json.workspaceFiles.skipped).toEqual(["SOUL.md"]);
    expect(json.workspaceFiles.created).not.toContain("BOOTSTRAP.md");
    expect(readFileSync(join(pre, "SOUL.md"), "utf8")).toBe("kept");
  });

  it("honours skipBootstrap from the legacy top-level agent block", async () => {
    const sb = createCliSandbox();
    sb.writeConfig(`{ agent: { skipBootstrap: true } }\n`);
    const res = await sb.run(["agents", "add", "bare"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("files:     not seeded (skipBootstrap is set)");
    expect(existsSync(join(sb.stateDir, "workspace-bare"))).toBe(true);
    expect(existsSync(join(sb.stateDir, "workspace-bare", "AGENTS.md"))).toBe(false);
  });
});
