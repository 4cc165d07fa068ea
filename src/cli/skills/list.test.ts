import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { run } from "./list.js";

/** A cli-sandbox with a fake bundled dir, an empty PATH and a direct `skills list` call. */
function sandbox() {
  const sb = createCliSandbox();
  const bundled = join(sb.home, "bundled");
  mkdirSync(sb.stateDir, { recursive: true });
  mkdirSync(join(sb.home, "bin"));
  Object.assign(sb.env, { OPENCLAW_BUNDLED_SKILLS_DIR: bundled, PATH: join(sb.home, "bin") });
  const writeSkill = (dir: string, folder: string, frontmatter: string) => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, "SKILL.md"), `---\n${frontmatter}\n---\nbody\n`);
  };
  return {
    home: sb.home,
    stateDir: sb.stateDir,
    bundled,
    env: sb.env,
    writeSkill,
    writeConfig: sb.writeConfig,
    run: (opts: { agent?: string; json?: boolean }) => sb.call(run, { opts }),
  };
}

describe("pincer skills list", () => {
  it("shows every skill with source, status, reason and a ~ location", async () => {
    const sb = sandbox();
    sb.writeSkill(
      join(sb.stateDir, "workspace", "skills"),
      "notes",
      "name: notes\ndescription: mine",
    );
    sb.writeSkill(sb.bundled, "notes", "name: notes\ndescription: bundled");
    sb.writeSkill(
      sb.bundled,
      "gh",
      'name: github\ndescription: gh\nmetadata: {"openclaw": {"requires": {"bins": ["gh"]}}}',
    );
    const res = await sb.run({});
    expect(res.code).toBe(0);
    expect(res.stderr).toBe("");
    const lines = res.stdout.split("\n");
    expect(lines[0]).toBe("Skills of agent main (1 ready of 3)");
    expect(lines[1]).toMatch(/^NAME\s+SOURCE\s+STATUS\s+REASON\s+LOCATION$/);
    const cells = lines.slice(2, 5).map((line) => line.split(/ {2,}/));
    expect(cells).toEqual([
      ["github", "bundled", "blocked", "missing binary: gh", "~/bundled/gh/SKILL.md"],
      ["notes", "workspace", "ready", "-", "~/.openclaw/workspace/skills/notes/SKILL.md"],
      [
        "notes",
        "bundled",
        "shadowed",
        "shadowed by the workspace skill at ~/.openclaw/workspace/skills/notes/SKILL.md",
        "~/bundled/notes/SKILL.md",
      ],
    ]);
    // Columns line up: every row starts its LOCATION at the same offset.
    const at = lines[1].indexOf("LOCATION");
    expect(lines.slice(2, 5).every((line) => line.indexOf("~/", at) === at)).toBe(true);
    expect(lines[5]).toBe(
      `searched: workspace ~/.openclaw/workspace/skills, managed ~/.openclaw/skills, bundled ~/bundled`,
    );
  });

  it("prints the records as JSON, per agent, honouring the agent's skills list", async () => {
    const sb = sandbox();
    sb.writeConfig(`{
      agents: { list: [{ id: "main" }, { id: "work", workspace: "~/ws-work", skills: ["tidy"] }] },
      skills: { entries: { tidy: { env: { TIDY_TOKEN: "x" } } } },
    }`);
    sb.writeSkill(
      join(sb.home, "ws-work", "skills"),
      "tidy",
      'name: tidy\ndescription: t\nmetadata: {"openclaw": {"requires": {"env": ["TIDY_TOKEN"]}}}',
    );
    sb.writeSkill(sb.bundled, "extra", "name: extra\ndescription: e");
    const res = await sb.run({ agent: "work", json: true });
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.agentId).toBe("work");
    expect(out.workspace).toBe(join(sb.home, "ws-work"));
    expect(out.problems).toEqual([]);
    expect(out.skills).toEqual([
      {
        name: "extra",
        description: "e",
        location: join(sb.bundled, "extra", "SKILL.md"),
        source: "bundled",
        status: "disabled",
        reason: "not in this agent's skills list (agents.list[].skills)",
      },
      {
        name: "tidy",
        description: "t",
        location: join(sb.home, "ws-work", "skills", "tidy", "SKILL.md"),
        source: "workspace",
        status: "ready",
      },
    ]);
    const main = JSON.parse((await sb.run({ json: true })).stdout);
    expect(main.agentId).toBe("main");
    expect(main.skills.map((s: { name: string }) => s.name)).toEqual(["extra"]);
  });

  it("says so when there are no skills and warns about unreadable sources", async () => {
    const sb = sandbox();
    sb.writeConfig(`{ skills: { load: { extraDirs: ["~/nowhere"] } } }`);
    const res = await sb.run({});
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("No skills found.");
    expect(res.stderr).toBe(
      "warning: bundled skills ~/bundled: folder not found\nwarning: extra skills ~/nowhere: folder not found\n",
    );
  });

  it("refuses an unknown agent", async () => {
    const sb = sandbox();
    await expect(sb.run({ agent: "ghost" })).rejects.toThrow(
      'unknown agent "ghost" (configured: main)',
    );
  });

  it("finds the real bundled skills without an override", async () => {
    const sb = sandbox();
    delete sb.env.OPENCLAW_BUNDLED_SKILLS_DIR;
    const out = JSON.parse((await sb.run({ json: true })).stdout);
    const names = out.skills.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(["daily-notes", "pincer-config"]));
    expect(out.problems).toEqual([]);
  });
});
