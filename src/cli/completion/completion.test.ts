// `pincer completion`: the scripts come from the live command tree, and the bash one really completes
// when sourced in bash (`pincer gat` → `gateway`, then its subcommands and flags).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCliSandbox } from "../../../test/helpers/cli-sandbox.js";
import { makeTempDir } from "../../../test/helpers/temp-cleanup.js";

const hasBash = spawnSync("bash", ["-c", "true"]).status === 0;
if (!hasBash) console.warn("SKIPPED: bash is not installed; the sourced-script tests do not run");

/** Sources `script` in bash and returns COMPREPLY for the typed `words` (the last is being completed). */
function bashComplete(script: string, words: string[]): string[] {
  const dir = makeTempDir("pincer-completion-");
  const file = join(dir, "pincer.bash");
  writeFileSync(file, script);
  const array = words.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
  const probe = [
    `source '${file}'`,
    `COMP_WORDS=(${array})`,
    `COMP_CWORD=${words.length - 1}`,
    "_pincer_complete",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template.
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const result = spawnSync("bash", ["--norc", "--noprofile", "-c", probe], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return result.stdout.split("\n").filter((line) => line !== "");
}

async function script(shell: string): Promise<string> {
  const sandbox = createCliSandbox();
  const run = await sandbox.run(["completion", shell]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return run.stdout;
}

describe.skipIf(!hasBash)("pincer completion bash, sourced in bash", () => {
  it("completes top-level commands, subcommands and flags of the tree", async () => {
    const bash = await script("bash");
    expect(bashComplete(bash, ["pincer", "gat"])).toEqual(["gateway"]);
    expect(bashComplete(bash, ["pincer", "gateway", ""])).toEqual(
      expect.arrayContaining(["run", "call", "install", "uninstall", "stop", "restart", "status"]),
    );
    expect(bashComplete(bash, ["pincer", "gateway", "ru"])).toEqual(["run"]);
    expect(bashComplete(bash, ["pincer", "gateway", "run", "--po"])).toEqual(["--port"]);
    // Commands of every family declaration appear without extra upkeep.
    expect(bashComplete(bash, ["pincer", "doc"])).toEqual(["doctor"]);
    expect(bashComplete(bash, ["pincer", "channels", "failures", "r"])).toEqual(["retry"]);
  });

  it("skips flags and their values when finding the command being typed", async () => {
    const bash = await script("bash");
    // `--profile gateway` is a value, not the gateway command.
    expect(bashComplete(bash, ["pincer", "--profile", "gateway", "heal"])).toEqual(["health"]);
    expect(bashComplete(bash, ["pincer", "--no-color", "sessions", "li"])).toEqual(["list"]);
    // Completing a flag's value offers no command names (bash falls back to files).
    expect(bashComplete(bash, ["pincer", "gateway", "run", "--bind", ""])).toEqual([]);
  });
});

describe("pincer completion", () => {
  it("takes the shell as an argument or as --shell (OpenClaw's flag), and refuses others", async () => {
    const sandbox = createCliSandbox();
    const zsh = await sandbox.run(["completion", "--shell", "zsh"]);
    expect(zsh.stdout).toMatch(/^#compdef pincer/);
    expect(zsh.stdout).toContain("'doctor:check config");
    const fish = await sandbox.run(["completion", "-s", "fish"]);
    expect(fish.stdout).toContain("complete -c pincer -f -n '__pincer_at '\\'''\\''' -a 'gateway'");
    const bad = await sandbox.run(["completion", "tcsh"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('shell "tcsh": expected bash, zsh, fish');
    const clash = await sandbox.run(["completion", "bash", "--shell", "zsh"]);
    expect(clash.code).toBe(2);
  });

  it("--write-state writes the script under the state dir instead of printing it", async () => {
    const sandbox = createCliSandbox();
    const run = await sandbox.run(["completion", "bash", "--write-state"]);
    const file = join(sandbox.stateDir, "completions", "pincer.bash");
    expect(run.stdout).toBe(`wrote ${file}; load it from your shell's profile: source '${file}'\n`);
    expect(readFileSync(file, "utf8")).toContain("complete -o default -F _pincer_complete pincer");
  });

  it("defaults to the login shell named by $SHELL, else zsh", async () => {
    const bashUser = createCliSandbox({ SHELL: "/bin/bash" });
    expect((await bashUser.run(["completion"])).stdout).toContain("complete -o default -F");
    const other = createCliSandbox({ SHELL: "/bin/tcsh" });
    expect((await other.run(["completion"])).stdout).toMatch(/^#compdef pincer/);
  });
});
