// The built `pincer onboard` on a real pseudo-terminal (util-linux `script`): the executable hands its
// own TTY to the wizard, the key is typed masked, Ctrl-C writes nothing, and the process exits by
// itself once done. Without `script` these tests skip with a notice (CI=true requires it).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import JSON5 from "json5";
import { describe, expect, it, onTestFinished } from "vitest";
import { makeTempDir } from "./helpers/temp-cleanup.js";

const SCRIPT = ["/usr/bin/script", "/bin/script"].find((path) => existsSync(path));
const SKIP = SCRIPT === undefined && process.env.CI !== "true";
if (SKIP) {
  console.warn("\n⚠ SKIPPING the onboard terminal tests: `script` (util-linux) is missing\n");
}

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer);
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

interface PtyRun {
  child: ChildProcess;
  waitFor(text: string): Promise<void>;
  type(keys: string): void;
  exit: Promise<number | null>;
  screen(): string;
}

/** Runs `pincer onboard` under `script` with a 200-column terminal, in a fresh HOME. */
function onboardOnPty(home: string): PtyRun {
  const env = { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: join(home, ".openclaw") };
  const command = `stty cols 200 rows 50; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} onboard`;
  const child = spawn(SCRIPT ?? "script", ["-qfec", command, "/dev/null"], { env });
  // A wizard that hangs must not outlive its test.
  onTestFinished(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let out = "";
  child.stdout?.on("data", (chunk) => {
    out += String(chunk);
  });
  let cursor = 0;
  const screen = () => out.replace(ANSI, "");
  const exit = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    child,
    screen,
    exit,
    async waitFor(text) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const at = screen().indexOf(text, cursor);
        if (at >= 0) {
          cursor = at + text.length;
          return;
        }
        if (Date.now() > deadline)
          throw new Error(`"${text}" not shown:\n${screen().slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    type(keys) {
      child.stdin?.write(keys);
    },
  };
}

describe.skipIf(SKIP)("pincer onboard on a pseudo-terminal", () => {
  it("walks the questions, masks the key, writes config and key, and exits by itself", async () => {
    const home = makeTempDir("pincer-tty-");
    const pty = onboardOnPty(home);
    await pty.waitFor("Model provider");
    pty.type("\r");
    await pty.waitFor("Model (");
    pty.type("\r");
    await pty.waitFor("API key");
    pty.type("\r");
    await pty.waitFor("anthropic API key");
    pty.type("sk-ant-on-a-pty-42\r");
    await pty.waitFor("Workspace folder");
    pty.type("\r");
    await pty.waitFor("Connect a chat channel");
    pty.type("\u001b[B\r");
    await pty.waitFor("Write this to");
    pty.type("\r");
    await pty.waitFor("pincer gateway");
    // The wizard must not hold the terminal open: the process ends although stdin stays open.
    expect(await pty.exit).toBe(0);
    expect(pty.screen()).not.toContain("sk-ant-on-a-pty-42");
    const state = join(home, ".openclaw");
    const cfg = JSON5.parse(readFileSync(join(state, "openclaw.json"), "utf8"));
    expect(cfg.agents.defaults.model).toEqual({ primary: "anthropic/claude-opus-4-6" });
    const store = readFileSync(join(state, "agents/main/agent/auth-profiles.json"), "utf8");
    expect(JSON.parse(store).profiles["anthropic:default"].key).toBe("sk-ant-on-a-pty-42");
  }, 40_000);

  it("Ctrl-C at the first question writes nothing and exits 1", async () => {
    const home = makeTempDir("pincer-tty-");
    const pty = onboardOnPty(home);
    await pty.waitFor("Model provider");
    pty.type("\u0003");
    await pty.waitFor("Cancelled: nothing was written.");
    pty.child.stdin?.end();
    expect(await pty.exit).toBe(1);
    expect(existsSync(join(home, ".openclaw"))).toBe(false);
  }, 40_000);
});
