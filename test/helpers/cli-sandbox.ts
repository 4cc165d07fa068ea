// Runs the CLI in-process against a temp state dir, capturing output: the harness for CLI tests.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/program.js";

/** The captured outcome of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temp home + state dir and a `run(argv)` that executes `pincer` in it. */
export interface CliSandbox {
  home: string;
  stateDir: string;
  configPath: string;
  env: Record<string, string>;
  writeConfig: (text: string) => void;
  run: (argv: string[], stdin?: string) => Promise<CliRun>;
}

/** Creates a fresh sandbox; nothing outside the temp dir is read or written. */
export function createCliSandbox(): CliSandbox {
  const home = mkdtempSync(join(tmpdir(), "pincer-cli-"));
  const stateDir = join(home, ".openclaw");
  const configPath = join(stateDir, "openclaw.json");
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir };
  return {
    home,
    stateDir,
    configPath,
    env,
    writeConfig: (text) => {
      mkdirSync(stateDir, { recursive: true });
      writeFileSync(configPath, text);
    },
    run: async (argv, stdin = "") => {
      let stdout = "";
      let stderr = "";
      const code = await runCli(argv, {
        stdout: (text) => {
          stdout += text;
        },
        stderr: (text) => {
          stderr += text;
        },
        env,
        readStdin: async () => stdin,
        isTty: false,
      });
      return { code, stdout, stderr };
    },
  };
}
