import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { loadBootstrapFiles } from "./bootstrap.js";
import {
  type BootstrapHookContext,
  type BootstrapHookFile,
  createBootstrapHookRegistry,
} from "./bootstrap-hooks.js";

function subagentWorkspace(): string {
  const dir = makeTempDir("pincer-hooks-");
  writeFileSync(join(dir, "AGENTS.md"), "rules\n");
  writeFileSync(join(dir, "TOOLS.md"), "tools\n");
  return dir;
}

const names = (files: Array<{ name: string }>) => files.map((file) => file.name);

describe("agent:bootstrap hooks", () => {
  it("can add, drop and replace files, in registration order, with the run's context", async () => {
    const dir = subagentWorkspace();
    const hooks = createBootstrapHookRegistry();
    const seen: BootstrapHookContext[] = [];
    hooks.register((ctx) => {
      seen.push(ctx);
      return [...ctx.files, { name: "EXTRA.md", path: "/x/EXTRA.md", content: "extra\n" }];
    });
    hooks.register(async (ctx) => ctx.files.filter((file) => file.name !== "TOOLS.md"));
    hooks.register((ctx) =>
      ctx.files.map((file) =>
        file.name === "AGENTS.md" ? { ...file, content: "replaced rules\n" } : file,
      ),
    );
    const { files, warnings } = await loadBootstrapFiles({
      workspaceDir: dir,
      mode: "subagent",
      hooks,
      agentId: "work",
      sessionKey: "agent:work:subagent:1",
    });
    expect(warnings).toEqual([]);
    expect(names(files)).toEqual(["AGENTS.md", "EXTRA.md"]);
    expect(files[0]).toMatchObject({ content: "replaced rules\n", rawChars: 15, missing: false });
    expect(files[1]).toEqual({
      name: "EXTRA.md",
      path: "/x/EXTRA.md",
      content: "extra\n",
      missing: false,
      rawChars: 6,
      injectedChars: 6,
      truncated: false,
    });
    expect(seen[0]).toMatchObject({
      agentId: "work",
      sessionKey: "agent:work:subagent:1",
      workspaceDir: dir,
      mode: "subagent",
    });
    expect(names(seen[0]!.files)).toEqual(["AGENTS.md", "TOOLS.md"]);
  });

  it("reports a throwing hook as a warning and ignores its changes, even in-place ones", async () => {
    const dir = subagentWorkspace();
    const hooks = createBootstrapHookRegistry();
    hooks.register(
      (ctx) => {
        ctx.files.length = 0;
        throw new Error("boom");
      },
      { name: "broken" },
    );
    hooks.register(() => undefined as unknown as BootstrapHookFile[], { name: "sloppy" });
    hooks.register(function addNote(ctx) {
      return [...ctx.files, { name: "NOTE.md", path: "/n/NOTE.md", content: "n\n" }];
    });
    const { files, warnings } = await loadBootstrapFiles({
      workspaceDir: dir,
      mode: "subagent",
      hooks,
    });
    expect(names(files)).toEqual(["AGENTS.md", "TOOLS.md", "NOTE.md"]);
    expect(warnings).toEqual([
      'agent:bootstrap hook "broken" failed: boom; its changes were ignored',
      'agent:bootstrap hook "sloppy" returned something other than a list of files ({ name, path, content }); its changes were ignored',
    ]);
  });

  it("applies the caps and the empty-file rule to what hooks return", async () => {
    const dir = subagentWorkspace();
    const hooks = createBootstrapHookRegistry();
    hooks.register((ctx) => [
      ...ctx.files,
      { name: "BIG.md", path: "/b/BIG.md", content: "b".repeat(30_000) },
      { name: "BLANK.md", path: "/b/BLANK.md", content: "\n" },
    ]);
    const { files } = await loadBootstrapFiles({ workspaceDir: dir, mode: "subagent", hooks });
    expect(names(files)).toEqual(["AGENTS.md", "TOOLS.md", "BIG.md"]);
    expect(files[2]).toMatchObject({ rawChars: 30_000, injectedChars: 20_000, truncated: true });
  });

  it("can fill in a missing file, and unregistering removes a hook", async () => {
    const dir = makeTempDir("pincer-hooks-");
    const hooks = createBootstrapHookRegistry();
    const remove = hooks.register((ctx) =>
      ctx.files.map((file) =>
        file.missing ? { ...file, content: `generated ${file.name}\n`, missing: false } : file,
      ),
    );
    const filled = await loadBootstrapFiles({ workspaceDir: dir, mode: "subagent", hooks });
    expect(filled.files.map((f) => [f.content, f.missing])).toEqual([
      ["generated AGENTS.md\n", false],
      ["generated TOOLS.md\n", false],
    ]);
    remove();
    expect(hooks.list()).toEqual([]);
    const plain = await loadBootstrapFiles({ workspaceDir: dir, mode: "subagent", hooks });
    expect(plain.files.every((f) => f.missing)).toBe(true);
  });
});
