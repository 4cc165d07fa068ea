// `pincer hooks list | info | check | enable | disable` in-process against a temp state dir: a
// workspace hook folder and the bundled hooks listed with their status, enable/disable written to
// the config through the safe writer, and a hook missing a requirement refused by `enable`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "./helpers/cli-sandbox.js";

function writeHook(root: string, name: string, metadata: Record<string, unknown>): void {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "HOOK.md"),
    `---\nname: ${name}\ndescription: "${name} hook"\nmetadata: ${JSON.stringify({ openclaw: metadata })}\n---\n`,
  );
  writeFileSync(join(dir, "handler.js"), "export default () => {};\n");
}

function sandboxWithHooks() {
  const sb = createCliSandbox();
  const workspace = join(sb.home, "ws");
  writeHook(join(workspace, "hooks"), "audit", { events: ["command:new"], emoji: "🔎" });
  writeHook(join(workspace, "hooks"), "needs-key", {
    events: ["command"],
    requires: { env: ["HOOK_TEST_KEY_UNSET"] },
  });
  writeHook(join(sb.stateDir, "hooks"), "audit", { events: ["command:reset"] });
  sb.writeConfig(JSON.stringify({ agents: { defaults: { workspace } } }));
  return sb;
}

describe("pincer hooks", () => {
  it("lists workspace, managed and bundled hooks with status, shadowing and reasons", async () => {
    const sb = sandboxWithHooks();
    const listed = await sb.run(["hooks", "list", "--json"]);
    expect(listed.code).toBe(0);
    const out = JSON.parse(listed.stdout) as {
      internalEnabled: boolean;
      hooks: Array<{ name: string; source: string; status: string; reason?: string }>;
    };
    expect(out.internalEnabled).toBe(false);
    const row = (name: string, source: string) =>
      out.hooks.find((hook) => hook.name === name && hook.source === source);
    expect(row("audit", "workspace")?.status).toBe("ready");
    expect(row("audit", "managed")?.status).toBe("shadowed");
    expect(row("needs-key", "workspace")).toMatchObject({
      status: "blocked",
      reason: "missing env: HOOK_TEST_KEY_UNSET",
    });
    for (const name of ["boot-md", "session-memory", "command-logger"])
      expect(row(name, "bundled")?.status).toBe("ready");
    const text = await sb.run(["hooks", "list"]);
    expect(text.stdout).toContain("internal hooks are off");
    expect(text.stdout).toMatch(/🔎 audit\s+workspace\s+ready\s+command:new/);
  });

  it("enable writes the entry and turns internal hooks on; disable writes false; info and check report it", async () => {
    const sb = sandboxWithHooks();
    const enabled = await sb.run(["hooks", "enable", "session-memory"]);
    expect(enabled.code).toBe(0);
    expect(enabled.stdout).toContain("enabled hook session-memory");
    const config = () => JSON.parse(readFileSync(sb.configPath, "utf8"));
    expect(config().hooks.internal).toEqual({
      enabled: true,
      entries: { "session-memory": { enabled: true } },
    });
    const disabled = await sb.run(["hooks", "disable", "audit"]);
    expect(disabled.code).toBe(0);
    expect(config().hooks.internal.entries.audit).toEqual({ enabled: false });
    const info = await sb.run(["hooks", "info", "audit", "--json"]);
    expect(JSON.parse(info.stdout)).toMatchObject({
      name: "audit",
      source: "workspace",
      status: "disabled",
      reason: "disabled in config (hooks.internal.entries.audit.enabled)",
    });
    const check = await sb.run(["hooks", "check", "--json"]);
    expect(JSON.parse(check.stdout)).toMatchObject({
      internalEnabled: true,
      ready: 3,
      disabled: 1,
      blocked: 1,
      shadowed: 1,
    });
  });

  it("refuses to enable a hook that cannot run, and an unknown name, changing nothing", async () => {
    const sb = sandboxWithHooks();
    const before = readFileSync(sb.configPath, "utf8");
    const blocked = await sb.run(["hooks", "enable", "needs-key"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(
      "hook needs-key cannot run (blocked: missing env: HOOK_TEST_KEY_UNSET)",
    );
    const unknown = await sb.run(["hooks", "info", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no hook named "nope"');
    expect(readFileSync(sb.configPath, "utf8")).toBe(before);
  });
});
