// The skills shipped in the package's skills/ folder: they parse, and each one is ready here or
// blocked only by a binary this machine lacks.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { findPackageRoot } from "../../lib/package-root.js";
import { resolveBundledSkillsDir } from "./bundled-dir.js";
import { discoverSkills } from "./discover.js";
import { hasBinary } from "./gating.js";

const bundledDir = resolveBundledSkillsDir({ moduleUrl: import.meta.url, env: {} });

describe("bundled skills", () => {
  it("are found from the package root", () => {
    expect(bundledDir).toBe(join(findPackageRoot(import.meta.url)!, "skills"));
    expect(existsSync(bundledDir!)).toBe(true);
  });

  it("parse and are ready on this machine, unless a required binary is missing", () => {
    const empty = makeTempDir("pincer-bundled-");
    const env = { PATH: process.env.PATH ?? "", HOME: empty };
    const { skills, problems } = discoverSkills({
      workspaceDir: join(empty, "ws"),
      stateDir: join(empty, "state"),
      bundledDir: bundledDir!,
      config: {},
      env,
    });
    expect(problems).toEqual([]);
    const folders = readdirSync(bundledDir!)
      .filter((name) => !name.startsWith("."))
      .sort();
    expect(skills.map((skill) => skill.name).sort()).toEqual(folders);
    expect(skills.length).toBeGreaterThanOrEqual(2);
    const lookup = { path: env.PATH, platform: process.platform, memo: new Map<string, boolean>() };
    for (const skill of skills) {
      expect(skill.source).toBe("bundled");
      expect(skill.description.length).toBeGreaterThan(40);
      expect(skill.description.length).toBeLessThanOrEqual(300);
      if (skill.name === "github" && !hasBinary("gh", lookup)) {
        expect(skill).toMatchObject({ status: "blocked", reason: "missing binary: gh" });
      } else {
        expect(skill).toMatchObject({ status: "ready" });
      }
    }
  });
});
