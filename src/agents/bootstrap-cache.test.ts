import { rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { BootstrapCache } from "./bootstrap-cache.js";
import { createBootstrapHookRegistry } from "./bootstrap-hooks.js";

function workspace(): string {
  return makeTempDir("pincer-bcache-");
}

const injected = (files: Array<{ name: string; content: string; missing?: boolean }>) =>
  Object.fromEntries(files.filter((f) => !f.missing).map((f) => [f.name, f.content]));

describe("BootstrapCache", () => {
  it("returns the same snapshot while nothing changed", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "AGENTS.md"), "rules v1\n");
    const cache = new BootstrapCache();
    const first = await cache.load({ workspaceDir: dir, mode: "main" });
    const second = await cache.load({ workspaceDir: dir, mode: "main" });
    expect(second).toBe(first);
    expect(injected(first.files)["AGENTS.md"]).toBe("rules v1\n");
  });

  it("sees an in-place edit (same size, new mtime), a new file and a removed one", async () => {
    const dir = workspace();
    const agents = join(dir, "AGENTS.md");
    writeFileSync(agents, "rules v1\n");
    const cache = new BootstrapCache();
    await cache.load({ workspaceDir: dir, mode: "main" });
    writeFileSync(agents, "rules v2\n");
    utimesSync(agents, new Date(), new Date(Date.now() + 5_000));
    const edited = await cache.load({ workspaceDir: dir, mode: "main" });
    expect(injected(edited.files)["AGENTS.md"]).toBe("rules v2\n");
    writeFileSync(join(dir, "MEMORY.md"), "remember\n");
    const added = await cache.load({ workspaceDir: dir, mode: "main" });
    expect(injected(added.files)["MEMORY.md"]).toBe("remember\n");
    rmSync(join(dir, "MEMORY.md"));
    const removed = await cache.load({ workspaceDir: dir, mode: "main" });
    expect(injected(removed.files)["MEMORY.md"]).toBeUndefined();
  });

  it("keeps modes apart, reports a missing folder, and never caches hooked loads", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "SOUL.md"), "soul\n");
    const cache = new BootstrapCache();
    const main = await cache.load({ workspaceDir: dir, mode: "main" });
    const sub = await cache.load({ workspaceDir: dir, mode: "subagent" });
    expect(injected(main.files)["SOUL.md"]).toBe("soul\n");
    expect(injected(sub.files)["SOUL.md"]).toBeUndefined();
    let calls = 0;
    const hooks = createBootstrapHookRegistry();
    hooks.register((ctx) => {
      calls += 1;
      return ctx.files;
    });
    await cache.load({ workspaceDir: dir, mode: "main", hooks });
    await cache.load({ workspaceDir: dir, mode: "main", hooks });
    expect(calls).toBe(2);
    rmSync(dir, { recursive: true });
    expect((await cache.load({ workspaceDir: dir, mode: "main" })).dirPresent).toBe(false);
  });
});
