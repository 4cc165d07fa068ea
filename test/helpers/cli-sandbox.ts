// Runs the CLI in-process against a temp state dir, capturing output: the harness for CLI tests.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandInput } from "../../src/cli/command.js";
import { type CliContext, type CliIo, ExitCode } from "../../src/cli/command-context.js";
import { runCli } from "../../src/cli/program.js";
import { createFakeProcessIo, type FakeSignals } from "./fake-process-io.js";
import { removeWhenDone } from "./temp-cleanup.js";

/** The captured outcome of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command module's `run`, as program.ts's actions call it. */
export type CommandRun = (
  ctx: CliContext,
  input: CommandInput<never>,
) => Promise<number | undefined>;

/** What `callCommand` passes to a command: positionals, options and standard input. */
export interface CommandCall {
  args?: string[];
  opts?: object;
  stdin?: string;
}

/** A temp home + state dir and a `run(argv)` that executes `pincer` in it. */
export interface CliSandbox {
  home: string;
  stateDir: string;
  configPath: string;
  env: Record<string, string>;
  writeConfig: (text: string) => void;
  run: (argv: string[], stdin?: string) => Promise<CliRun>;
  /** Calls one command module directly (no argv parsing); a CliError rejects. */
  call: (command: CommandRun, input?: CommandCall) => Promise<CliRun>;
  /** Delivers SIGINT/SIGTERM to what a running command subscribed with `ctx.onSignal`. */
  signals: FakeSignals;
}

/** Runs `body` with a non-terminal io that captures both streams and serves `stdin`. */
async function capture(
  env: Record<string, string>,
  stdin: string,
  body: (io: CliIo) => Promise<number | undefined>,
  proc = createFakeProcessIo().io,
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await body({
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env,
    readStdin: async () => stdin,
    isTty: false,
    ...proc,
  });
  return { code: code ?? ExitCode.ok, stdout, stderr };
}

/** Calls a command's `run` in-process with a capturing, colourless context; a CliError rejects. */
export function callCommand(
  command: CommandRun,
  env: Record<string, string>,
  { args = [], opts = {}, stdin = "" }: CommandCall = {},
): Promise<CliRun> {
  return capture(env, stdin, (io) =>
    command({ ...io, color: false }, { args, opts: opts as never }),
  );
}

function callInput({ args = [], opts = {} }: CommandCall = {}): CommandInput<never> {
  return { args, opts: opts as never };
}

/** Creates a fresh sandbox (plus `extraEnv`); nothing outside the temp dir is read or written. */
export function createCliSandbox(extraEnv: Record<string, string> = {}): CliSandbox {
  const home = mkdtempSync(join(tmpdir(), "pincer-cli-"));
  removeWhenDone(home);
  const stateDir = join(home, ".openclaw");
  const configPath = join(stateDir, "openclaw.json");
  const env = { HOME: home, OPENCLAW_STATE_DIR: stateDir, ...extraEnv };
  const proc = createFakeProcessIo();
  return {
    home,
    stateDir,
    configPath,
    env,
    writeConfig: (text) => {
      mkdirSync(stateDir, { recursive: true });
      writeFileSync(configPath, text);
    },
    run: (argv, stdin = "") => capture(env, stdin, (io) => runCli(argv, io), proc.io),
    call: (command, input) =>
      capture(
        env,
        input?.stdin ?? "",
        (io) => command({ ...io, color: false }, callInput(input)),
        proc.io,
      ),
    signals: proc.signals,
  };
}
