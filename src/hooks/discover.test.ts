import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test/helpers/temp-cleanup.js";
import { bundledMetadata } from "./bundled/types.js";
import { discoverHooks } from "./discover.js";

function hook(dir: string, events: string[], handler: string | null = "handler.js", extra = "") {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "HOOK.md"),
    `---\ndescription: d\nmetadata: {"openclaw": {"events": ${JSON.stringify(events)}${extra}}}\n---\n`,
  );
  if (handler) writeFileSync(join(dir, handler), "export default () => {};\n");
}

let root = "";
afterEach(() => {
  root = "";
});

function setup() {
  root = makeTempDir("pincer-hooks-discover-");
  const workspace = join(root, "ws");
  const stateDir = join(root, "state");
  return { workspace, stateDir };
}

const bundled = [
  bundledMetadata({ name: "boot-md", description: "b", emoji: "🚀", events: ["gateway:startup"] }),
];

describe("discoverHooks", () => {
  it("orders workspace > managed > bundled > extra; the lower copies of a name are shadowed", () => {
    const { workspace, stateDir } = setup();
    const extra = join(root, "extra");
    hook(join(workspace, "hooks", "boot-md"), ["gateway:startup"]);
    hook(join(stateDir, "hooks", "boot-md"), ["gateway:startup"]);
    hook(join(stateDir, "hooks", "mine"), ["command"]);
    hook(join(extra, "mine"), ["command"]);
    const found = discoverHooks({
      workspaceDir: workspace,
      stateDir,
      config: {},
      internal: { load: { extraDirs: [extra] } },
      env: {},
      bundled,
      typescript: false,
    });
    const rows = found.hooks.map((h) => [h.name, h.source, h.status]);
    expect(rows).toEqual([
      ["boot-md", "workspace", "ready"],
      ["boot-md", "managed", "shadowed"],
      ["mine", "managed", "ready"],
      ["boot-md", "bundled", "shadowed"],
      ["mine", "extra", "shadowed"],
    ]);
    expect(found.problems).toEqual([]);
  });

  it("reports a .ts-only handler on a Node without TypeScript, a missing handler, and a missing extra dir", () => {
    const { workspace, stateDir } = setup();
    hook(join(workspace, "hooks", "typed"), ["command"], "handler.ts");
    hook(join(workspace, "hooks", "empty"), ["command"], null);
    const found = discoverHooks({
      workspaceDir: workspace,
      stateDir,
      config: {},
      internal: { load: { extraDirs: [join(root, "nowhere")] } },
      env: {},
      bundled: [],
      typescript: false,
    });
    const byName = Object.fromEntries(found.hooks.map((h) => [h.name, h]));
    expect(byName.typed).toMatchObject({ status: "invalid" });
    expect(byName.typed?.reason).toContain("compile it to handler.js");
    expect(byName.empty?.reason).toContain("no handler module");
    expect(found.problems).toEqual([
      { source: "extra", path: join(root, "nowhere"), message: "folder not found" },
    ]);
    const withTs = discoverHooks({
      workspaceDir: workspace,
      stateDir,
      config: {},
      internal: undefined,
      env: {},
      bundled: [],
      typescript: true,
    });
    expect(withTs.hooks.find((h) => h.name === "typed")?.status).toBe("ready");
  });

  it("reads hook packs and applies the config switch and requirements", () => {
    const { workspace, stateDir } = setup();
    const pack = join(stateDir, "hooks", "acme-pack");
    hook(join(pack, "hooks", "one"), ["command:new"]);
    hook(
      join(pack, "hooks", "two"),
      ["command:new"],
      "handler.js",
      ', "requires": {"env": ["TWO_KEY"], "config": ["browser.enabled", "workspace.dir"]}',
    );
    writeFileSync(
      join(pack, "package.json"),
      JSON.stringify({ openclaw: { hooks: ["./hooks/one", "./hooks/two"] } }),
    );
    const found = discoverHooks({
      workspaceDir: workspace,
      stateDir,
      config: {},
      internal: { entries: { one: { enabled: false } } },
      env: {},
      bundled: [],
    });
    expect(found.hooks.map((h) => [h.name, h.status, h.reason])).toEqual([
      ["one", "disabled", "disabled in config (hooks.internal.entries.one.enabled)"],
      ["two", "blocked", "missing env: TWO_KEY; config not set: browser.enabled"],
    ]);
    const satisfied = discoverHooks({
      workspaceDir: workspace,
      stateDir,
      config: { browser: { enabled: true } },
      internal: { entries: { two: { env: { TWO_KEY: "x" } } } },
      env: {},
      bundled: [],
    });
    expect(satisfied.hooks.find((h) => h.name === "two")?.status).toBe("ready");
  });
});
