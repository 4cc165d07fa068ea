// `pincer gateway install|uninstall|stop|restart|status` with a recording systemctl runner: the
// exact unit text, the exact systemctl invocations, and the errors — no systemd, temp HOME only.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { capturingContext } from "../../../test/helpers/fake-process-io.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import type { SystemctlResult } from "../../daemon/systemctl.js";
import { quoteSystemdWord } from "../../daemon/systemd-unit.js";
import type { CliContext, CliError } from "../command-context.js";
import { installWith } from "./install.js";
import { restartWith } from "./restart.js";
import type { ServiceDeps } from "./service.js";
import { statusWith } from "./status.js";
import { stopWith } from "./stop.js";
import { uninstallWith } from "./uninstall.js";

function setup(params: { profile?: string; env?: Record<string, string>; fail?: string } = {}) {
  const home = makeTempDir("pincer-svc-");
  const stateDir = join(home, "state dir");
  const captured = capturingContext({
    env: { HOME: home, OPENCLAW_STATE_DIR: stateDir, ...params.env },
  });
  const ctx: CliContext = {
    ...captured.ctx,
    ...(params.profile ? { profile: params.profile } : {}),
  };
  const calls: string[][] = [];
  const deps: ServiceDeps = {
    systemctl: async (args): Promise<SystemctlResult> => {
      calls.push(args);
      if (params.fail && args.includes(params.fail)) {
        return { code: 1, stdout: "", stderr: "Failed to connect to bus: No medium found" };
      }
      return { code: 0, stdout: args.includes("is-active") ? "active\n" : "", stderr: "" };
    },
    nodePath: "/usr/bin/node",
    cliPath: "/opt/pincer/dist/bin/pincer.js",
  };
  return { home, stateDir, ctx, deps, calls, out: captured.out, err: captured.err };
}

/** A live process that holds `stateDir`'s lock as a gateway (exits 0 on SIGTERM). */
async function startLockHolder(stateDir: string) {
  const child = spawn(
    process.execPath,
    [
      "-e",
      "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000); console.log('up')",
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve) => child.stdout?.once("data", resolve));
  mkdirSync(stateDir, { recursive: true });
  const lock = { pid: child.pid, createdAt: new Date().toISOString(), command: "gateway" };
  writeFileSync(join(stateDir, "gateway.lock"), `${JSON.stringify(lock)}\n`);
  return { child, exited };
}

describe("gateway service commands", () => {
  it("install probes the user bus, writes the unit, runs daemon-reload then enable --now", async () => {
    const t = setup({ env: { OPENCLAW_CONFIG_PATH: "/etc/oc/openclaw.json" } });
    expect(await installWith(t.ctx, { port: "18790" }, t.deps)).toBe(0);
    const unitPath = join(t.home, ".config/systemd/user/openclaw-gateway.service");
    expect(readFileSync(unitPath, "utf8")).toBe(
      [
        "[Unit]",
        "Description=OpenClaw Gateway (Pincer)",
        "After=network-online.target",
        "Wants=network-online.target",
        "",
        "[Service]",
        "ExecStart=/usr/bin/node /opt/pincer/dist/bin/pincer.js gateway run --port 18790",
        "Restart=always",
        "RestartSec=5",
        "KillMode=process",
        "TimeoutStopSec=30",
        `Environment="OPENCLAW_STATE_DIR=${t.stateDir}"`,
        "Environment=OPENCLAW_CONFIG_PATH=/etc/oc/openclaw.json",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
      ].join("\n"),
    );
    expect(t.calls).toEqual([
      ["--user", "show-environment"],
      ["--user", "daemon-reload"],
      ["--user", "enable", "--now", "openclaw-gateway.service"],
    ]);
    expect(t.out()).toContain("enabled and started");
    await expect(installWith(t.ctx, {}, t.deps)).rejects.toThrow(/already exists; use --force/);
    expect(await installWith(t.ctx, { force: true }, t.deps)).toBe(0);
    expect(readFileSync(unitPath, "utf8")).toContain("gateway run\n");
  });

  it("names the unit after the profile and passes --profile to the CLI", async () => {
    const t = setup({ profile: "work", env: { XDG_CONFIG_HOME: "" } });
    await installWith(t.ctx, {}, t.deps);
    const unit = readFileSync(
      join(t.home, ".config/systemd/user/openclaw-gateway-work.service"),
      "utf8",
    );
    expect(unit).toContain(
      "ExecStart=/usr/bin/node /opt/pincer/dist/bin/pincer.js --profile work gateway run\n",
    );
    expect(unit).toContain("Description=OpenClaw Gateway (Pincer, profile work)");
    expect(t.calls.at(-1)).toEqual(["--user", "enable", "--now", "openclaw-gateway-work.service"]);
  });

  it("refuses without systemctl and rolls back a failing step: nothing is left behind", async () => {
    const manual = setup();
    const noSystemctl = await installWith(manual.ctx, {}, { ...manual.deps, systemctl: undefined })
      .then(() => undefined)
      .catch((err: unknown) => err as CliError);
    expect(noSystemctl?.exitCode).toBe(1);
    expect(noSystemctl?.message).toContain("systemctl not found");
    expect(noSystemctl?.message).toContain("nothing was installed");
    expect(noSystemctl?.message).toContain("pincer gateway");
    expect(existsSync(join(manual.home, ".config"))).toBe(false);
    const failing = setup({ fail: "enable" });
    await expect(installWith(failing.ctx, {}, failing.deps)).rejects.toThrow(
      /systemctl --user enable --now openclaw-gateway.service failed \(exit 1\): Failed to connect to bus[\s\S]*nothing was installed/,
    );
    expect(existsSync(join(failing.home, ".config"))).toBe(false);
    expect(failing.calls.slice(-2)).toEqual([
      ["--user", "disable", "openclaw-gateway.service"],
      ["--user", "daemon-reload"],
    ]);
    await expect(installWith(manual.ctx, { port: "x" }, manual.deps)).rejects.toMatchObject({
      exitCode: 2,
    });
  });

  it("stop, restart, status and uninstall go through systemctl when the unit is installed", async () => {
    const t = setup();
    await installWith(t.ctx, {}, t.deps);
    t.calls.length = 0;
    expect(await stopWith(t.ctx, {}, t.deps)).toBe(0);
    expect(await restartWith(t.ctx, t.deps)).toBe(0);
    expect(await statusWith(t.ctx, { json: true }, t.deps)).toBe(0);
    expect(await uninstallWith(t.ctx, t.deps)).toBe(0);
    expect(t.calls).toEqual([
      ["--user", "stop", "openclaw-gateway.service"],
      ["--user", "restart", "openclaw-gateway.service"],
      ["--user", "is-active", "openclaw-gateway.service"],
      ["--user", "disable", "--now", "openclaw-gateway.service"],
      ["--user", "daemon-reload"],
    ]);
    expect(
      JSON.parse(t.out().slice(t.out().indexOf("{"), t.out().lastIndexOf("}") + 1)),
    ).toMatchObject({
      service: { installed: true, systemd: "active" },
      process: { running: false },
    });
    expect(existsSync(join(t.home, ".config/systemd/user/openclaw-gateway.service"))).toBe(false);
    expect(await uninstallWith(t.ctx, t.deps)).toBe(0);
    expect(t.out()).toContain("no gateway service installed");
  });

  it("stop with the unit installed also stops a gateway started outside the service", async () => {
    const t = setup();
    await installWith(t.ctx, {}, t.deps);
    // `pincer gateway` in a terminal holds the state dir while the unit is inactive.
    const { child, exited } = await startLockHolder(t.stateDir);
    try {
      t.calls.length = 0;
      expect(await stopWith(t.ctx, {}, t.deps)).toBe(0);
      expect(await exited).toBe(0);
      expect(t.calls).toEqual([["--user", "stop", "openclaw-gateway.service"]]);
      expect(t.err()).toContain(`a gateway outside the service (pid ${child.pid}) still holds`);
      expect(t.out()).toContain(`gateway (pid ${child.pid}) stopped`);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("install refuses while a gateway outside systemd holds the state dir: nothing written", async () => {
    const t = setup();
    const { child } = await startLockHolder(t.stateDir);
    try {
      await expect(installWith(t.ctx, {}, t.deps)).rejects.toThrow(
        new RegExp(`a gateway \\(pid ${child.pid}\\) is already running .* nothing was installed`),
      );
      expect(existsSync(join(t.home, ".config"))).toBe(false);
      expect(t.calls).toEqual([["--user", "show-environment"]]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("without a unit: stop is a no-op (exit 0, a note), restart fails clearly", async () => {
    const t = setup();
    expect(await stopWith(t.ctx, {}, t.deps)).toBe(0);
    expect(t.out()).toContain(`no gateway is running for ${t.stateDir}`);
    expect(t.out()).toContain("nothing to stop");
    await expect(restartWith(t.ctx, t.deps)).rejects.toThrow(/start one with: pincer gateway run/);
    expect(await statusWith(t.ctx, {}, t.deps)).toBe(1);
    expect(t.out()).toContain("service: not installed");
    expect(t.calls).toEqual([]);
  });

  it("is wired into the CLI: `pincer gateway stop` with nothing running exits 0", async () => {
    const sb = createCliSandbox();
    const res = await sb.run(["gateway", "stop"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("no gateway is running for");
    expect(res.stderr).toBe("");
  });

  it("quotes ExecStart words the way systemd reads them", () => {
    expect(quoteSystemdWord("/usr/bin/node")).toBe("/usr/bin/node");
    expect(quoteSystemdWord("/home/a b/x")).toBe('"/home/a b/x"');
    expect(quoteSystemdWord('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteSystemdWord("50%")).toBe("50%%");
  });
});
