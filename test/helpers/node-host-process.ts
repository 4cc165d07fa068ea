// A real node host for e2e tests: `pincer node run` from the built dist as a child process with its
// own temp home and state dir (never the gateway's), its stdout collected. Tests reach the gateway
// through `startForwardingProxy` so it sees a remote node (no loopback auto-pairing).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pincerBin = join(
  root,
  JSON.parse(readFileSync(join(root, "package.json"), "utf8")).bin.pincer,
);

/** A running node host process. */
export interface NodeHostProcess {
  child: ChildProcess;
  home: string;
  stateDir: string;
  /** Everything it printed so far. */
  out(): string;
  /** Polls its output (default 20 s) until `pattern` appears; returns the match. */
  waitForOutput(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  /** SIGKILL (if still running) and removes its temp home. */
  kill(): Promise<void>;
}

/** Spawns `pincer node run <args>` with a fresh home and state dir. */
export function spawnNodeHost(args: string[]): NodeHostProcess {
  const home = mkdtempSync(join(tmpdir(), "pincer-node-"));
  const stateDir = join(home, ".openclaw");
  mkdirSync(stateDir, { recursive: true });
  const child = spawn(process.execPath, [pincerBin, "node", "run", ...args], {
    env: { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    out += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    child,
    home,
    stateDir,
    out: () => out,
    exited,
    async waitForOutput(pattern, ms = 20_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const match = pattern.exec(out);
        if (match) return match;
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`node host output never matched ${pattern}:\n${out}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
      rmSync(home, { recursive: true, force: true });
    },
  };
}
