import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { resolveBootstrapLimits, resolveSkipBootstrap } from "./bootstrap-config.js";
import { WORKSPACE_TEMPLATES } from "./templates.js";
import { isBootstrapPending, isBrandNewWorkspace, seedWorkspace } from "./workspace.js";

const ALL = WORKSPACE_TEMPLATES.map((t) => t.name);
const WITHOUT_BOOTSTRAP = ALL.filter((name) => name !== "BOOTSTRAP.md");

function tempDir(): string {
  return makeTempDir("pincer-ws-");
}

describe("seedWorkspace", () => {
  it("seeds a brand-new workspace with every template, BOOTSTRAP.md and memory/", async () => {
    const dir = join(tempDir(), "nested", "workspace");
    const result = await seedWorkspace({ dir });
    expect(result).toEqual({
      dir,
      dirCreated: true,
      created: [...ALL, "memory/"],
      skipped: [],
      bootstrapSkipped: false,
      brandNew: true,
    });
    for (const template of WORKSPACE_TEMPLATES)
      expect(readFileSync(join(dir, template.name), "utf8")).toBe(template.content);
    expect(statSync(join(dir, "memory")).isDirectory()).toBe(true);
    expect(await isBootstrapPending(dir)).toBe(true);
  });

  it("never overwrites: an edited file is kept byte for byte, and a re-run creates nothing", async () => {
    const dir = tempDir();
    const edited = "# SOUL\r\nmine, with CRLF and no trailing newline \u{1F980}";
    writeFileSync(join(dir, "SOUL.md"), edited);
    const first = await seedWorkspace({ dir });
    expect(first.dirCreated).toBe(false);
    expect(first.brandNew).toBe(false);
    expect(first.skipped).toEqual(["SOUL.md"]);
    expect(first.created).toEqual([...WITHOUT_BOOTSTRAP.filter((n) => n !== "SOUL.md"), "memory/"]);
    expect(readFileSync(join(dir, "SOUL.md"), "utf8")).toBe(edited);

    const second = await seedWorkspace({ dir });
    expect(second.created).toEqual([]);
    expect(second.skipped).toEqual(WITHOUT_BOOTSTRAP);
    expect(readFileSync(join(dir, "SOUL.md"), "utf8")).toBe(edited);
  });

  it("writes BOOTSTRAP.md only into a brand-new workspace", async () => {
    const used = tempDir();
    writeFileSync(join(used, "MEMORY.md"), "long-term notes\n");
    expect(await isBrandNewWorkspace(used)).toBe(false);
    const result = await seedWorkspace({ dir: used });
    expect(result.created).not.toContain("BOOTSTRAP.md");
    expect(existsSync(join(used, "BOOTSTRAP.md"))).toBe(false);

    // After the ritual the agent deletes BOOTSTRAP.md; seeding again must not bring it back.
    const fresh = tempDir();
    await seedWorkspace({ dir: fresh });
    expect(await isBrandNewWorkspace(fresh)).toBe(false);
    rmSync(join(fresh, "BOOTSTRAP.md"));
    expect(await isBootstrapPending(fresh)).toBe(false);
    expect((await seedWorkspace({ dir: fresh })).created).toEqual([]);
    expect(existsSync(join(fresh, "BOOTSTRAP.md"))).toBe(false);
  });

  it("keeps an existing BOOTSTRAP.md and reports it as skipped", async () => {
    const dir = tempDir();
    await seedWorkspace({ dir });
    writeFileSync(join(dir, "BOOTSTRAP.md"), "custom ritual\n");
    const again = await seedWorkspace({ dir });
    expect(again.skipped).toEqual(ALL);
    expect(readFileSync(join(dir, "BOOTSTRAP.md"), "utf8")).toBe("custom ritual\n");
  });

  it("with skipBootstrap creates only the folder", async () => {
    const dir = join(tempDir(), "ws");
    const result = await seedWorkspace({ dir, skipBootstrap: true });
    expect(result).toMatchObject({ dirCreated: true, created: [], bootstrapSkipped: true });
    expect(existsSync(dir)).toBe(true);
    expect(existsSync(join(dir, "AGENTS.md"))).toBe(false);
    expect(existsSync(join(dir, "memory"))).toBe(false);
  });

  it("is race-safe: concurrent seeders create each file exactly once", async () => {
    const dir = tempDir();
    const results = await Promise.all([1, 2, 3, 4].map(() => seedWorkspace({ dir })));
    const created = results.flatMap((r) => r.created);
    for (const name of WITHOUT_BOOTSTRAP)
      expect(
        created.filter((n) => n === name),
        name,
      ).toHaveLength(1);
    expect(created.filter((n) => n === "memory/")).toHaveLength(1);
    for (const template of WORKSPACE_TEMPLATES.filter((t) => existsSync(join(dir, t.name))))
      expect(readFileSync(join(dir, template.name), "utf8")).toBe(template.content);
  });
});

describe("isBootstrapPending", () => {
  it("is false for a missing or blank BOOTSTRAP.md", async () => {
    const dir = tempDir();
    expect(await isBootstrapPending(dir)).toBe(false);
    writeFileSync(join(dir, "BOOTSTRAP.md"), "  \n");
    expect(await isBootstrapPending(dir)).toBe(false);
    expect(await isBootstrapPending(join(dir, "does-not-exist"))).toBe(false);
  });
});

describe("bootstrap config knobs", () => {
  it("resolves skipBootstrap: agent entry > agents.defaults > legacy agent", () => {
    expect(resolveSkipBootstrap({}, "main")).toBe(false);
    expect(resolveSkipBootstrap({ agent: { skipBootstrap: true } }, "main")).toBe(true);
    const cfg = {
      agent: { skipBootstrap: true },
      agents: {
        defaults: { skipBootstrap: false },
        list: [{ id: "pre", skipBootstrap: true }, { id: "plain" }],
      },
    };
    expect(resolveSkipBootstrap(cfg, "plain")).toBe(false);
    expect(resolveSkipBootstrap(cfg, "PRE")).toBe(true);
    expect(
      resolveSkipBootstrap({ agents: { entries: { solo: { skipBootstrap: true } } } }, "solo"),
    ).toBe(true);
  });

  it("resolves the caps per agent and ignores non-positive values", () => {
    expect(resolveBootstrapLimits({}, "main")).toEqual({
      maxChars: 20_000,
      totalMaxChars: 150_000,
    });
    const cfg = {
      agent: { bootstrapTotalMaxChars: 9_000 },
      agents: {
        defaults: { bootstrapMaxChars: 5_000 },
        list: [
          { id: "big", bootstrapMaxChars: 40_000 },
          { id: "bad", bootstrapMaxChars: 0 },
        ],
      },
    };
    expect(resolveBootstrapLimits(cfg, "big")).toEqual({ maxChars: 40_000, totalMaxChars: 9_000 });
    expect(resolveBootstrapLimits(cfg, "bad")).toEqual({ maxChars: 5_000, totalMaxChars: 9_000 });
  });
});

describe("memory folder", () => {
  it("leaves an existing memory/ and its notes alone", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "memory"));
    writeFileSync(join(dir, "memory", "2026-01-02.md"), "note\n");
    const result = await seedWorkspace({ dir });
    expect(result.created).not.toContain("memory/");
    expect(readFileSync(join(dir, "memory", "2026-01-02.md"), "utf8")).toBe("note\n");
  });
});
