// `pincer completion [bash|zsh|fish]` (or `--shell`, OpenClaw's flag): prints a completion script built
// from the live commander tree, so every registered command and flag completes without upkeep.
import { basename } from "node:path";
import type { Command } from "commander";
import {
  COMPLETION_SHELLS,
  type CompletionShell,
  renderCompletionScript,
} from "./completion-scripts.js";
import { type CompletionNode, completionNodes } from "./completion-tree.js";
import { type CliContext, CliError, ExitCode } from "./context.js";
import type { CommandInput } from "./program.js";

interface CompletionOptions {
  shell?: string;
}

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
  return async (ctx: CliContext, { args, opts }: CommandInput<CompletionOptions>) => {
    const shell = chooseShell({
      ...(args[0] !== undefined ? { arg: args[0] } : {}),
      ...(opts.shell !== undefined ? { flag: opts.shell } : {}),
      env: ctx.env,
    });
    ctx.stdout(completionScript(root, shell));
    return ExitCode.ok;
  };
}
