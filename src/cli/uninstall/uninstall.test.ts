// `pincer uninstall`: what each flag removes in a real temp HOME (service unit, state dir, workspaces),
// --dry-run and the --yes / confirmation gate, and the paths it refuses (home, /, a running gateway's).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliSandbox, createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { capturingContext } from "../../../test/helpers/fake-process-io.js";
import type { ServiceDeps } from "../gateway/service.js";
import { uninstallAllWith } from "./uninstall.js";

type UninstallOptions = Parameters<typeof uninstallAllWith>[1];

/** A HOME with a unit file, a state dir (config, a session, the default workspace inside it) and a
 * second agent whose workspace lives outside the state dir. */
function installed(
  extraConfig: object = {},
): CliSandbox & { unit: string; inside: string; outside: string } {
  const sandbox = createCliSandbox();
  const inside = join(sandbox.stateDir, "workspace");
  const outside = join(sandbox.home, "projects", "work-ws");
  sandbox.writeConfig(
    JSON.stringify({
      agents: {
        list: [
          { id: "main", default: true },
          { id: "work", workspace: outside },
        ],
      },
      ...extraConfig,
    }),
  );
  for (const dir of [inside, outside, join(sandbox.stateDir, "agents", "main", "sessions")]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(join(inside, "AGENTS.md"), "# mine\n");
  writeFileSync(join(outside, "AGENTS.md"), "# work\n");
  writeFileSync(join(sandbox.stateDir, "agents", "main", "sessions", "sessions.json"), "{}");
  const unit = join(sandbox.home, ".config", "systemd", "user", "openclaw-gateway.service");
  mkdirSync(join(unit, ".."), { recursive: true });
  writeFileSync(unit, "[Unit]\n");
  return { ...sandbox, unit, inside, outside };
}

function context(sandbox: CliSandbox, isTty: boolean) {
  return capturingContext({ env: sandbox.env, isTty });
}

function deps(answer: boolean) {
  const calls: string[][] = [];
  const asked: string[] = [];
  const service: ServiceDeps = {
    systemctl: async (args) => {
      calls.push(args);
      return { code: 0, stdout: "", stderr: "" };
    },
    nodePath: "/usr/bin/node",
    cliPath: "/opt/pincer/dist/bin/pincer.js",
  };
  return {
    calls,
    asked,
    deps: {
      service,
      confirm: async (message: string) => {
        asked.push(message);
        return answer;
      },
    },
  };
}

async function uninstall(
  sandbox: CliSandbox,
  opts: UninstallOptions,
  params: { tty?: boolean; answer?: boolean } = {},
) {
  const io = context(sandbox, params.tty ?? false);
  const fake = deps(params.answer ?? false);
  let code: number;
  try {
    code = await uninstallAllWith(io.ctx, opts, fake.deps);
  } catch (err) {
    code = -1;
    io.ctx.stderr(String(err));
  }
  return { code, out: io.out(), err: io.err(), calls: fake.calls, asked: fake.asked };
}

describe("pincer uninstall", () => {
  it("needs a part to remove, and --dry-run lists everything without removing anything", async () => {
    const t = installed();
    const none = await t.run(["uninstall"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--service, --state, --workspace or --all");
    const dry = await t.run(["uninstall", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would remove: gateway service unit ${t.unit}`);
    expect(dry.stdout).toContain(`would remove: workspace ${t.outside}`);
    expect(dry.stdout).toContain(`would remove: state dir ${t.stateDir}`);
    for (const path of [t.unit, t.inside, t.outside, t.configPath])
      expect(existsSync(path)).toBe(true);
    const json = await t.run(["uninstall", "--state", "--dry-run", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({
      dryRun: true,
      remove: [{ kind: "state", path: t.stateDir, keep: [t.inside], symlink: false }],
      kept: [{ path: t.inside, reason: "a workspace (add --workspace to remove it)" }],
      refused: [],
    });
  });

  it("refuses without --yes off a terminal, and asks on one", async () => {
    const t = installed();
    const headless = await t.run(["uninstall", "--state"]);
    expect(headless.code).toBe(2);
    expect(headless.stderr).toContain("re-run with --yes");
    expect(existsSync(t.configPath)).toBe(true);
    const declined = await uninstall(t, { state: true }, { tty: true, answer: false });
    expect(declined.asked).toHaveLength(1);
    expect(declined.out).toContain("nothing removed");
    expect(existsSync(t.configPath)).toBe(true);
    const nonInteractive = await uninstall(t, { state: true, nonInteractive: true }, { tty: true });
    expect(nonInteractive.asked).toHaveLength(0);
    expect(existsSync(t.configPath)).toBe(true);
    const accepted = await uninstall(t, { state: true }, { tty: true, answer: true });
    expect(accepted.code).toBe(0);
    expect(existsSync(t.configPath)).toBe(false);
  });

  it("--state removes the state dir but keeps the workspaces (inside it too) and the service", async () => {
    const t = installed();
    const run = await t.run(["uninstall", "--state", "--yes"]);
    expect(run.code).toBe(0);
    expect(readdirSync(t.stateDir)).toEqual(["workspace"]);
    expect(existsSync(join(t.inside, "AGENTS.md"))).toBe(true);
    expect(existsSync(join(t.outside, "AGENTS.md"))).toBe(true);
    expect(existsSync(t.unit)).toBe(true);
    expect(run.stdout).toContain(`kept ${t.inside} (a workspace (add --workspace to remove it))`);
  });

  it("--all removes the service (systemctl disable --now), the workspaces and the state dir; nothing else", async () => {
    const t = installed();
    const keepMe = join(t.home, "projects", "other.txt");
    writeFileSync(keepMe, "not pincer's");
    const run = await uninstall(t, { all: true, yes: true });
    expect(run.code).toBe(0);
    expect(run.calls).toEqual([
      ["--user", "disable", "--now", "openclaw-gateway.service"],
      ["--user", "daemon-reload"],
    ]);
    for (const path of [t.unit, t.stateDir, t.outside]) expect(existsSync(path)).toBe(false);
    expect(existsSync(keepMe)).toBe(true);
    expect(existsSync(t.home)).toBe(true);
  });

  it("refuses a workspace that is the home dir or /, and the state dir of a running gateway", async () => {
    const t = installed({
      agents: {
        list: [
          { id: "main", default: true, workspace: "~" },
          { id: "root", workspace: "/" },
        ],
      },
    });
    const run = await t.run(["uninstall", "--workspace", "--yes"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `refused ${t.home} (not removing workspace: it is or contains the home dir`,
    );
    expect(run.stdout).toContain("refused / (not removing workspace: it is the file system root)");
    expect(existsSync(join(t.home, ".config"))).toBe(true);

    const live = installed();
    writeFileSync(
      join(live.stateDir, "gateway.lock"),
      JSON.stringify({ pid: process.pid, createdAt: "now" }),
    );
    const locked = await live.run(["uninstall", "--state", "--yes"]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(
      `a gateway (pid ${process.pid}) is running on ${live.stateDir}`,
    );
    expect(existsSync(live.configPath)).toBe(true);
  });
});
