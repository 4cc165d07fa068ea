// `pincer completion [bash|zsh|fish]` (or `--shell`, OpenClaw's flag): prints a completion script built
// from the live commander tree, so every registered command and flag completes without upkeep;
// `--write-state` writes it to `<stateDir>/completions/pincer.<shell>` instead.
import { basename, join } from "node:path";
import type { Command } from "commander";
import { resolveStatePaths } from "../../config/index.js";
import { writeFileAtomic } from "../../lib/atomic-write.js";
import type { InputOf } from "../command.js";
import { type CliContext, CliError, ExitCode, printLine } from "../command-context.js";
import type { completionOptions } from "./commands.js";
import { COMPLETION_SHELLS, type CompletionShell, renderCompletionScript } from "./scripts.js";
import { type CompletionNode, completionNodes } from "./tree.js";

function asShell(value: string, from: string): CompletionShell {
  const shell = value.trim().toLowerCase();
  if ((COMPLETION_SHELLS as readonly string[]).includes(shell)) return shell as CompletionShell;
  throw new CliError(
    `${from} "${value}": expected ${COMPLETION_SHELLS.join(", ")}`,
    ExitCode.usage,
  );
}

/** The shell asked for: the argument or --shell (they must agree), else $SHELL's name, else zsh. */
export function chooseShell(params: {
  arg?: string;
  flag?: string;
  env: Record<string, string | undefined>;
}): CompletionShell {
  const arg = params.arg === undefined ? undefined : asShell(params.arg, "shell");
  const flag = params.flag === undefined ? undefined : asShell(params.flag, "--shell");
  if (arg && flag && arg !== flag) {
    throw new CliError(`shell "${arg}" and --shell "${flag}" disagree`, ExitCode.usage);
  }
  const chosen = arg ?? flag;
  if (chosen) return chosen;
  const login = basename(params.env.SHELL ?? "");
  return (COMPLETION_SHELLS as readonly string[]).includes(login)
    ? (login as CompletionShell)
    : "zsh";
}

/** The script for `shell` over the tree rooted at `root`. */
export function completionScript(root: Command, shell: CompletionShell): string {
  const nodes: CompletionNode[] = completionNodes(root);
  return renderCompletionScript(shell, nodes);
}

/** Builds the command's `run` over `root` (the program, complete by the time the action runs). */
export function runFor(root: Command) {
  return async (ctx: CliContext, { args, opts }: InputOf<typeof completionOptions>) => {
    const shell = chooseShell({
      ...(args[0] !== undefined ? { arg: args[0] } : {}),
      ...(opts.shell !== undefined ? { flag: opts.shell } : {}),
      env: ctx.env,
    });
    const script = completionScript(root, shell);
    if (!opts.writeState) {
      ctx.stdout(script);
      return ExitCode.ok;
    }
    const paths = resolveStatePaths({
      env: ctx.env,
      ...(ctx.profile ? { profile: ctx.profile } : {}),
    });
    const file = join(paths.stateDir, "completions", `pincer.${shell}`);
    writeFileAtomic(file, script, { mode: 0o644 });
    printLine(ctx, `wrote ${file}; load it from your shell's profile: source '${file}'`);
    return ExitCode.ok;
  };
}
