// `pincer gateway install|stop|restart|uninstall|status` through the real CLI and the real systemctl
// runner, against a fake `systemctl` script on PATH that behaves like systemd's: "Failed to connect to
// bus" without XDG_RUNTIME_DIR/DBUS_SESSION_BUS_ADDRESS (or with a dead bus), "Unit … not loaded."
// for a unit systemd has not loaded. Covers both classes: no user bus, and the unit not loaded.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeProcessIo } from "../../../test/helpers/fake-process-io.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";
import { ExitCode } from "../command-context.js";
import { runCli } from "../program.js";

// Shell builtins only: the fake runs with PATH set to its own folder.
const FAKE_SYSTEMCTL = `#!/bin/sh
echo "$*" >> "$FAKE_SYSTEMCTL_LOG"
if [ -z "$XDG_RUNTIME_DIR" ] && [ -z "$DBUS_SESSION_BUS_ADDRESS" ]; then
  echo 'Failed to connect to bus: $DBUS_SESSION_BUS_ADDRESS and $XDG_RUNTIME_DIR not defined (consider using --machine=<user>@.host --user to connect to bus of other user)' >&2
  exit 1
fi
if [ -n "$FAKE_DEAD_BUS" ]; then
  echo "Failed to connect to bus: No such file or directory" >&2
  exit 1
fi
for last; do :; done
loaded="$FAKE_SYSTEMCTL_LOG.loaded"
case "$2" in
  show-environment) echo "HOME=$HOME" ;;
  daemon-reload) : > "$loaded" ;;
  enable)
    if [ -n "$FAKE_FAIL_ENABLE" ]; then echo "Failed to enable unit: Access denied" >&2; exit 1; fi ;;
  is-active)
    if [ -n "$FAKE_NOT_LOADED" ]; then echo inactive; exit 3; fi
    echo active ;;
  stop|restart|disable)
    if [ -n "$FAKE_NOT_LOADED" ] && [ ! -e "$loaded" ]; then
      echo "Failed to $2 $last: Unit $last not loaded." >&2
      exit 5
    fi ;;
esac
exit 0
`;

function machine() {
  const home = makeTempDir("pincer-bus-");
  const bin = join(home, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "systemctl"), FAKE_SYSTEMCTL);
  chmodSync(join(bin, "systemctl"), 0o755);
  const log = join(home, "systemctl.log");
  const stateDir = join(home, ".openclaw");
  const unitPath = join(home, ".config/systemd/user/openclaw-gateway.service");
  const base = { HOME: home, PATH: bin, OPENCLAW_STATE_DIR: stateDir, FAKE_SYSTEMCTL_LOG: log };
  /** Runs `pincer <argv>` with the base env plus `extra` (a user session: XDG_RUNTIME_DIR). */
  const run = async (argv: string[], extra: Record<string, string> = {}) => {
    let stdout = "";
    let stderr = "";
    const code = await runCli(argv, {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      env: { ...base, ...extra },
      readStdin: async () => "",
      ...fakeProcessIo(),
      isTty: false,
    });
    return { code, stdout, stderr };
  };
  const calls = () =>
    existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : [];
  const session = { XDG_RUNTIME_DIR: join(home, "run") };
  return { home, unitPath, run, calls, session, loadedMarker: `${log}.loaded` };
}

describe("gateway service without a user bus", () => {
  it("install fails before writing anything and says what is missing and what to do", async () => {
    const m = machine();
    const res = await m.run(["gateway", "install"]);
    expect(res.code).toBe(ExitCode.failure);
    expect(res.stderr).toContain("no systemd user bus");
    expect(res.stderr).toContain("Failed to connect to bus");
    expect(res.stderr).toContain("XDG_RUNTIME_DIR and DBUS_SESSION_BUS_ADDRESS are not set");
    expect(res.stderr).toContain("loginctl enable-linger");
    expect(res.stderr).toContain("pincer gateway (in the foreground)");
    expect(existsSync(join(m.home, ".config"))).toBe(false);
    expect(m.calls()).toEqual(["--user show-environment"]);

    const dead = await m.run(["gateway", "install"], { ...m.session, FAKE_DEAD_BUS: "1" });
    expect(dead.code).toBe(ExitCode.failure);
    expect(dead.stderr).toContain(
      `XDG_RUNTIME_DIR=${m.session.XDG_RUNTIME_DIR} is set, but no systemd user manager answers`,
    );
    expect(existsSync(join(m.home, ".config"))).toBe(false);
  });

  it("a step failing after the write is rolled back (a --force overwrite gets its old unit back)", async () => {
    const m = machine();
    const failed = await m.run(["gateway", "install"], { ...m.session, FAKE_FAIL_ENABLE: "1" });
    expect(failed.code).toBe(ExitCode.failure);
    expect(failed.stderr).toContain("Access denied");
    expect(failed.stderr).toContain("nothing was installed");
    expect(existsSync(join(m.home, ".config"))).toBe(false);

    expect((await m.run(["gateway", "install"], m.session)).code).toBe(ExitCode.ok);
    const before = readFileSync(m.unitPath, "utf8");
    const env = { ...m.session, FAKE_FAIL_ENABLE: "1" };
    const force = await m.run(["gateway", "install", "--force", "--port", "19999"], env);
    expect(force.code).toBe(ExitCode.failure);
    expect(force.stderr).toContain("the previous");
    expect(readFileSync(m.unitPath, "utf8")).toBe(before);
  });

  it("an installed unit: stop exits 0 with a note, restart fails clearly, uninstall removes it", async () => {
    const m = machine();
    expect((await m.run(["gateway", "install"], m.session)).code).toBe(ExitCode.ok);
    const wants = join(m.home, ".config/systemd/user/default.target.wants");
    mkdirSync(wants);
    symlinkSync(m.unitPath, join(wants, "openclaw-gateway.service"));

    const stop = await m.run(["gateway", "stop"]);
    expect(stop.code).toBe(ExitCode.ok);
    expect(stop.stderr).toContain("note: no systemd user bus");
    expect(stop.stdout).toContain("nothing to stop");

    const restart = await m.run(["gateway", "restart"]);
    expect(restart.code).toBe(ExitCode.failure);
    expect(restart.stderr).toContain("no systemd user bus");
    expect(restart.stderr).toContain("loginctl enable-linger");

    const status = await m.run(["gateway", "status"]);
    expect(status.stdout).toContain("systemd: unreachable (no user bus)");

    const uninstall = await m.run(["gateway", "uninstall"]);
    expect(uninstall.code).toBe(ExitCode.ok);
    expect(uninstall.stderr).toContain("removing the unit files without stopping the service");
    expect(existsSync(m.unitPath)).toBe(false);
    expect(existsSync(join(wants, "openclaw-gateway.service"))).toBe(false);
    expect((await m.run(["gateway", "uninstall"])).code).toBe(ExitCode.ok);
  });
});

describe("gateway service whose unit systemd has not loaded", () => {
  it("stop notes it and exits 0, restart loads it first, uninstall is idempotent", async () => {
    const m = machine();
    expect((await m.run(["gateway", "install"], m.session)).code).toBe(ExitCode.ok);
    const unloaded = { ...m.session, FAKE_NOT_LOADED: "1" };
    const logged = m.calls().length;
    // A fresh systemd instance (say, after a reboot without lingering) has not loaded the unit.
    rmSync(m.loadedMarker);

    const stop = await m.run(["gateway", "stop"], unloaded);
    expect(stop.code).toBe(ExitCode.ok);
    expect(stop.stderr).toContain("service openclaw-gateway is not loaded in systemd");
    expect(stop.stdout).toContain("nothing to stop");

    const restart = await m.run(["gateway", "restart"], unloaded);
    expect(restart.code).toBe(ExitCode.ok);
    expect(restart.stdout).toContain("service openclaw-gateway restarted");
    expect(m.calls().slice(logged)).toEqual([
      "--user stop openclaw-gateway.service",
      "--user restart openclaw-gateway.service",
      "--user daemon-reload",
      "--user restart openclaw-gateway.service",
    ]);

    rmSync(m.loadedMarker);
    const uninstall = await m.run(["gateway", "uninstall"], unloaded);
    expect(uninstall.code).toBe(ExitCode.ok);
    expect(uninstall.stdout).toContain("was not loaded in systemd");
    expect(existsSync(m.unitPath)).toBe(false);
    const again = await m.run(["gateway", "uninstall"], unloaded);
    expect(again.code).toBe(ExitCode.ok);
    expect(again.stdout).toContain("no gateway service installed");
  });

  it("without a unit: restart says none is installed (exit 1), stop exits 0", async () => {
    const m = machine();
    const restart = await m.run(["gateway", "restart"], m.session);
    expect(restart.code).toBe(ExitCode.failure);
    expect(restart.stderr).toContain(
      "no service is installed (pincer gateway install sets one up)",
    );
    const stop = await m.run(["gateway", "stop"], m.session);
    expect(stop.code).toBe(ExitCode.ok);
    expect(m.calls()).toEqual([]);
  });
});
