import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import {
  type DiscoverSkillsParams,
  discoverSkills,
  listSkillSourceDirs,
  readySkills,
} from "./discover.js";

/** A temp layout: workspace, state dir, bundled dir, an extra dir and an empty PATH folder. */
function layout() {
  const root = makeTempDir("pincer-skills-");
  const dirs = {
    root,
    workspace: join(root, "ws"),
    state: join(root, "state"),
    bundled: join(root, "bundled"),
    extra: join(root, "extra"),
    bin: join(root, "bin"),
  };
  mkdirSync(dirs.bin);
  return dirs;
}

/** Writes `<dir>/<folder>/SKILL.md`; returns its path. */
function writeSkill(dir: string, folder: string, frontmatter: string, body = "# Skill\n"): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const file = join(dir, folder, "SKILL.md");
  writeFileSync(file, `---\n${frontmatter}\n---\n${body}`);
  return file;
}

function skill(name: string, description = `${name} does things`, extra = ""): string {
  return `name: ${name}\ndescription: ${description}${extra ? `\n${extra}` : ""}`;
}

function params(
  dirs: ReturnType<typeof layout>,
  over: Partial<DiscoverSkillsParams> = {},
): DiscoverSkillsParams {
  return {
    workspaceDir: dirs.workspace,
    stateDir: dirs.state,
    bundledDir: dirs.bundled,
    config: {},
    env: { PATH: dirs.bin, HOME: dirs.root },
    platform: "linux",
    ...over,
  };
}

describe("discoverSkills", () => {
  it("finds nothing (and reports nothing) when no folder exists but bundled", () => {
    const dirs = layout();
    const result = discoverSkills(params(dirs));
    expect(result.skills).toEqual([]);
    expect(result.problems).toEqual([
      { source: "bundled", path: dirs.bundled, message: "folder not found" },
    ]);
  });

  it("lets workspace beat managed beat bundled beat extra, reporting the shadowed ones", () => {
    const dirs = layout();
    const ws = writeSkill(
      join(dirs.workspace, "skills"),
      "notes",
      skill("notes", "workspace notes"),
    );
    const managed = writeSkill(
      join(dirs.state, "skills"),
      "notes-v2",
      skill("notes", "managed notes"),
    );
    const bundled = writeSkill(dirs.bundled, "notes", skill("notes", "bundled notes"));
    const extra = writeSkill(dirs.extra, "notes", skill("notes", "extra notes"));
    const managedOnly = writeSkill(join(dirs.state, "skills"), "tidy", skill("tidy"));
    const bundledTidy = writeSkill(dirs.bundled, "tidy", skill("tidy"));
    const config = { skills: { load: { extraDirs: [dirs.extra] } } };
    const { skills, problems } = discoverSkills(params(dirs, { config }));
    expect(problems).toEqual([]);
    expect(skills).toEqual([
      {
        name: "notes",
        description: "workspace notes",
        location: ws,
        source: "workspace",
        status: "ready",
      },
      {
        name: "notes",
        description: "managed notes",
        location: managed,
        source: "managed",
        status: "shadowed",
        reason: `shadowed by the workspace skill at ${ws}`,
      },
      expect.objectContaining({ location: bundled, source: "bundled", status: "shadowed" }),
      expect.objectContaining({ location: extra, source: "extra", status: "shadowed" }),
      expect.objectContaining({ location: managedOnly, source: "managed", status: "ready" }),
      {
        name: "tidy",
        description: "tidy does things",
        location: bundledTidy,
        source: "bundled",
        status: "shadowed",
        reason: `shadowed by the managed skill at ${managedOnly}`,
      },
    ]);
  });

  it("lets a gated-out winner still shadow lower sources, as OpenClaw merges before gating", () => {
    const dirs = layout();
    writeSkill(
      join(dirs.workspace, "skills"),
      "gh",
      skill("gh", "x", 'metadata: {"openclaw": {"requires": {"bins": ["gh"]}}}'),
    );
    writeSkill(dirs.bundled, "gh", skill("gh"));
    const { skills } = discoverSkills(params(dirs));
    expect(skills.map((s) => [s.source, s.status, s.reason])).toEqual([
      ["workspace", "blocked", "missing binary: gh"],
      ["bundled", "shadowed", expect.stringMatching(/^shadowed by the workspace skill at /)],
    ]);
    expect(readySkills({ skills, problems: [] })).toEqual([]);
  });

  it("reports every gating outcome with its reason", () => {
    const dirs = layout();
    const ws = join(dirs.workspace, "skills");
    writeSkill(
      ws,
      "a",
      skill("env-skill", "x", 'metadata: {"openclaw": {"requires": {"env": ["GITHUB_TOKEN"]}}}'),
    );
    writeSkill(ws, "b", skill("mac-only", "x", 'metadata: {"openclaw": {"os": ["darwin"]}}'));
    writeSkill(ws, "c", skill("off", "x"));
    writeSkill(
      ws,
      "d",
      skill("cfg", "x", 'metadata: {"openclaw": {"requires": {"config": ["browser.enabled"]}}}'),
    );
    writeSkill(dirs.bundled, "e", skill("not-allowed"));
    writeSkill(dirs.bundled, "f", skill("allowed"));
    const config = {
      skills: { entries: { off: { enabled: false } }, allowBundled: ["allowed"] },
    };
    const { skills } = discoverSkills(params(dirs, { config }));
    const verdicts = Object.fromEntries(skills.map((s) => [s.name, [s.status, s.reason]]));
    expect(verdicts).toEqual({
      allowed: ["ready", undefined],
      cfg: ["blocked", "config not set: browser.enabled"],
      "env-skill": ["blocked", "missing env: GITHUB_TOKEN"],
      "mac-only": ["blocked", "os linux not in [darwin]"],
      "not-allowed": ["disabled", "bundled skill not in skills.allowBundled"],
      off: ["disabled", "disabled in config (skills.entries.off.enabled)"],
    });
    const darwin = discoverSkills(
      params(dirs, { config, platform: "darwin", env: { PATH: "", GITHUB_TOKEN: "t" } }),
    );
    expect(darwin.skills.filter((s) => s.status === "ready").map((s) => s.name)).toEqual([
      "allowed",
      "env-skill",
      "mac-only",
    ]);
  });

  it("reports malformed skills as invalid, without letting them shadow anything", () => {
    const dirs = layout();
    const ws = join(dirs.workspace, "skills");
    const noName = writeSkill(ws, "nameless", "description: no name here");
    writeSkill(ws, "nodesc", "name: nodesc");
    writeSkill(ws, "badmeta", skill("badmeta", "x", "metadata: {oops"));
    writeSkill(
      ws,
      "badgate",
      skill("badgate", "x", 'metadata: {"openclaw": {"os": "linux", "requires": {"env": [1]}}}'),
    );
    mkdirSync(join(ws, "nofront"));
    writeFileSync(join(ws, "nofront", "SKILL.md"), "# Just markdown\n");
    const bundledNodesc = writeSkill(dirs.bundled, "nodesc", skill("nodesc"));
    const { skills } = discoverSkills(params(dirs));
    const byStatus = skills.map((s) => [s.name, s.source, s.status, s.reason]);
    expect(byStatus).toEqual([
      [
        "badgate",
        "workspace",
        "invalid",
        "metadata.openclaw.requires.env must be a list of strings",
      ],
      [
        "badmeta",
        "workspace",
        "invalid",
        "metadata: unbalanced braces (the JSON object is not closed)",
      ],
      ["nameless", "workspace", "invalid", "frontmatter has no name"],
      ["nodesc", "workspace", "invalid", "frontmatter has no description"],
      ["nodesc", "bundled", "ready", undefined],
      ["nofront", "workspace", "invalid", "no frontmatter: SKILL.md must start with a --- line"],
    ]);
    expect(skills[2].location).toBe(noName);
    expect(skills[4].location).toBe(bundledNodesc);
  });

  it("ignores folders without SKILL.md, dot folders and node_modules", () => {
    const dirs = layout();
    const ws = join(dirs.workspace, "skills");
    mkdirSync(join(ws, "empty"), { recursive: true });
    writeSkill(ws, ".hidden", skill("hidden"));
    writeSkill(ws, "node_modules", skill("nm"));
    writeFileSync(join(ws, "README.md"), "not a skill");
    expect(discoverSkills(params(dirs)).skills).toEqual([]);
  });

  it("expands ~ in extraDirs, accepts a dir that is itself a skill, and reports bad ones", () => {
    const dirs = layout();
    const single = writeSkill(dirs.root, "one-skill", skill("single"));
    writeFileSync(join(dirs.root, "a-file"), "");
    const extraDirs = ["~/one-skill", "~/missing", join(dirs.root, "a-file")];
    const result = discoverSkills(
      params(dirs, { config: { skills: { load: { extraDirs } } }, bundledDir: undefined }),
    );
    expect(result.skills).toEqual([
      expect.objectContaining({
        name: "single",
        location: single,
        source: "extra",
        status: "ready",
      }),
    ]);
    expect(result.problems).toEqual([
      { source: "extra", path: join(dirs.root, "missing"), message: "folder not found" },
      { source: "extra", path: join(dirs.root, "a-file"), message: "not a folder" },
    ]);
    expect(
      listSkillSourceDirs(params(dirs, { config: { skills: { load: { extraDirs } } } })).map(
        (d) => d.source,
      ),
    ).toEqual(["workspace", "managed", "bundled", "extra", "extra", "extra"]);
  });

  it("counts a folder reached twice (symlink, extraDirs = managed) once", () => {
    const dirs = layout();
    writeSkill(join(dirs.state, "skills"), "dup", skill("dup"));
    mkdirSync(join(dirs.workspace, "skills"), { recursive: true });
    symlinkSync(join(dirs.state, "skills", "dup"), join(dirs.workspace, "skills", "dup"));
    const config = { skills: { load: { extraDirs: [join(dirs.state, "skills")] } } };
    const { skills } = discoverSkills(params(dirs, { config }));
    expect(skills.map((s) => [s.source, s.status])).toEqual([["workspace", "ready"]]);
  });

  // chmod 000 does not stop root, so this runs for ordinary users (CI runs as root and skips it).
  it.skipIf(process.getuid?.() === 0)(
    "reports an unreadable folder as a problem and an unreadable SKILL.md as invalid",
    () => {
      const dirs = layout();
      const managed = join(dirs.state, "skills");
      writeSkill(managed, "x", skill("x"));
      const locked = writeSkill(join(dirs.workspace, "skills"), "locked", skill("locked"));
      chmodSync(managed, 0o000);
      chmodSync(locked, 0o000);
      try {
        const result = discoverSkills(params(dirs));
        expect(result.problems).toContainEqual({
          source: "managed",
          path: managed,
          message: "cannot read folder (EACCES)",
        });
        expect(result.skills).toEqual([
          expect.objectContaining({
            name: "locked",
            status: "invalid",
            reason: "cannot read SKILL.md (EACCES)",
          }),
        ]);
      } finally {
        chmodSync(managed, 0o755);
        chmodSync(locked, 0o644);
      }
    },
  );

  it("is deterministic: same tree, same records, regardless of creation order", () => {
    const a = layout();
    const b = layout();
    for (const name of ["zeta", "alpha", "mid"])
      writeSkill(join(a.workspace, "skills"), name, skill(name));
    for (const name of ["mid", "zeta", "alpha"])
      writeSkill(join(b.workspace, "skills"), name, skill(name));
    const strip = (dirs: ReturnType<typeof layout>) =>
      discoverSkills(params(dirs)).skills.map((s) => ({
        ...s,
        location: s.location.slice(dirs.root.length),
      }));
    expect(strip(a)).toEqual(strip(b));
    expect(strip(a).map((s) => s.name)).toEqual(["alpha", "mid", "zeta"]);
  });
});
