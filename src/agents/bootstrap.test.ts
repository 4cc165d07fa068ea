import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import {
  fitBootstrapContent,
  loadBootstrapFiles,
  missingFileMarker,
  truncationMarker,
} from "./bootstrap.js";
import { seedWorkspace } from "./workspace.js";

function workspace(files: Record<string, string> = {}): string {
  const dir = makeTempDir("pincer-boot-");
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

async function seeded(extra: Record<string, string> = {}): Promise<string> {
  const dir = workspace();
  await seedWorkspace({ dir });
  for (const [name, content] of Object.entries(extra)) writeFileSync(join(dir, name), content);
  return dir;
}

const names = (files: Array<{ name: string }>) => files.map((file) => file.name);

describe("loadBootstrapFiles: which files, in which order", () => {
  it("main session: the six core files, BOOTSTRAP.md when present, then MEMORY.md", async () => {
    const dir = await seeded({ "MEMORY.md": "prefers tea\n", "memory/2026-01-02.md": "daily\n" });
    const { files, warnings } = await loadBootstrapFiles({ workspaceDir: dir, mode: "main" });
    expect(warnings).toEqual([]);
    expect(names(files)).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
      "HEARTBEAT.md",
      "BOOTSTRAP.md",
      "MEMORY.md",
    ]);
    expect(files.some((file) => file.path.includes(`${join(dir, "memory")}`))).toBe(false);
    const memory = files.at(-1)!;
    expect(memory).toEqual({
      name: "MEMORY.md",
      path: join(dir, "MEMORY.md"),
      content: "prefers tea\n",
      missing: false,
      rawChars: 12,
      injectedChars: 12,
      truncated: false,
    });
  });

  it("other sessions never get MEMORY.md; sub-agents get only AGENTS.md and TOOLS.md", async () => {
    const dir = await seeded({ "MEMORY.md": "private\n" });
    const other = await loadBootstrapFiles({ workspaceDir: dir, mode: "other" });
    expect(names(other.files)).toEqual([
      "AGENTS.md",
      "SOUL.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
      "HEARTBEAT.md",
      "BOOTSTRAP.md",
    ]);
    const sub = await loadBootstrapFiles({ workspaceDir: dir, mode: "subagent" });
    expect(names(sub.files)).toEqual(["AGENTS.md", "TOOLS.md"]);
  });

  it("falls back to lowercase memory.md, and omits BOOTSTRAP.md once the ritual is done", async () => {
    const dir = workspace({ "AGENTS.md": "rules\n", "memory.md": "lower\n" });
    const { files } = await loadBootstrapFiles({ workspaceDir: dir, mode: "main" });
    expect(names(files)).not.toContain("BOOTSTRAP.md");
    expect(files.at(-1)).toMatchObject({ name: "memory.md", content: "lower\n" });
  });

  it("skips empty files and puts a one-line marker in place of a missing one", async () => {
    const dir = workspace({ "AGENTS.md": "rules\n", "SOUL.md": " \n\n", "MEMORY.md": "" });
    const { files } = await loadBootstrapFiles({ workspaceDir: dir, mode: "main" });
    expect(names(files)).toEqual([
      "AGENTS.md",
      "TOOLS.md",
      "IDENTITY.md",
      "USER.md",
      "HEARTBEAT.md",
    ]);
    const tools = files[1]!;
    expect(tools).toEqual({
      name: "TOOLS.md",
      path: join(dir, "TOOLS.md"),
      content: `[missing file] TOOLS.md does not exist (expected at ${join(dir, "TOOLS.md")})`,
      missing: true,
      rawChars: 0,
      injectedChars: tools.content.length,
      truncated: false,
    });
    expect(missingFileMarker("X.md", "/w/X.md")).toBe(
      "[missing file] X.md does not exist (expected at /w/X.md)",
    );
  });

  it("reports an unreadable file as a warning and a marker, without failing", async () => {
    const dir = workspace({ "AGENTS.md": "rules\n" });
    mkdirSync(join(dir, "SOUL.md"));
    const { files, warnings } = await loadBootstrapFiles({ workspaceDir: dir, mode: "other" });
    expect(files[1]).toMatchObject({ name: "SOUL.md", missing: true });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`cannot read ${join(dir, "SOUL.md")}`);
  });
});

describe("loadBootstrapFiles: caps and truncation", () => {
  it("cuts a file over the per-file cap to head + marker + tail, exactly the cap long", async () => {
    const soul = "H".repeat(300) + "T".repeat(300);
    const dir = workspace({ "AGENTS.md": "rules\n", "SOUL.md": soul });
    const { files } = await loadBootstrapFiles({ workspaceDir: dir, mode: "other", maxChars: 200 });
    const file = files[1]!;
    const marker = "[... truncated SOUL.md (600 chars); read the file for the omitted middle ...]";
    expect(truncationMarker("SOUL.md", 600)).toBe(marker);
    // room = 200 - 77 (marker) - 2 (newlines) = 121: head 90 (75%), tail 31.
    expect(file.content).toBe(`${"H".repeat(90)}\n${marker}\n${"T".repeat(31)}`);
    expect(file).toMatchObject({ rawChars: 600, injectedChars: 200, truncated: true });
    expect(files[0]).toMatchObject({ content: "rules\n", truncated: false });
  });

  it("shares the total cap in order: later files get what is left, then nothing", async () => {
    const agents = `${"A".repeat(99)}\n`;
    const tools = "U".repeat(500) + "V".repeat(500);
    const dir = workspace({ "AGENTS.md": agents, "TOOLS.md": tools });
    const sub = await loadBootstrapFiles({
      workspaceDir: dir,
      mode: "subagent",
      totalMaxChars: 400,
    });
    const marker =
      "[... truncated TOOLS.md (1000 chars); read the file for the omitted middle ...]";
    // AGENTS.md takes 100; TOOLS.md gets 300: room 300 - 79 - 2 = 219, head 164, tail 55.
    expect(sub.files[0]).toMatchObject({ content: agents, injectedChars: 100, truncated: false });
    expect(sub.files[1]!.content).toBe(`${"U".repeat(164)}\n${marker}\n${"V".repeat(55)}`);
    expect(sub.files[1]).toMatchObject({ rawChars: 1000, injectedChars: 300, truncated: true });
    expect(sub.warnings).toEqual([]);

    const tight = await loadBootstrapFiles({
      workspaceDir: dir,
      mode: "subagent",
      totalMaxChars: 120,
    });
    expect(tight.files[1]).toMatchObject({
      name: "TOOLS.md",
      content: "",
      rawChars: 1000,
      injectedChars: 0,
      truncated: true,
    });
    expect(tight.warnings).toEqual([
      "TOOLS.md was not injected: no room left under the bootstrap caps (20000 per file, 120 in total)",
    ]);
  });

  it("defaults to 20000 per file and 150000 in total", async () => {
    const big = "x".repeat(25_000);
    const dir = workspace({ "AGENTS.md": big, "SOUL.md": big, "TOOLS.md": big });
    const { files } = await loadBootstrapFiles({ workspaceDir: dir, mode: "other" });
    expect(files.slice(0, 3).map((file) => file.injectedChars)).toEqual([20_000, 20_000, 20_000]);
    const total = files.reduce((sum, file) => sum + file.injectedChars, 0);
    expect(total).toBeLessThanOrEqual(150_000);
  });

  it("never splits a surrogate pair", () => {
    const content = "\u{1F980}".repeat(200);
    const fitted = fitBootstrapContent({ name: "X.md", content, cap: 200 });
    expect(fitted.truncated).toBe(true);
    expect(fitted.content.length).toBeLessThanOrEqual(200);
    expect(fitted.content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(fitted.content).not.toMatch(/(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
