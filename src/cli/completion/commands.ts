// `pincer completion [shell]`: a completion script over the whole command tree. The tree is the
// program itself, complete by the time the command runs, so the declaration is built for a root.
import type { Command } from "commander";
import { defineCommand, flag, lazyRun, value } from "../command.js";

/** Options of `pincer completion`. */
export const completionOptions = {
  shell: value("<shell>", "bash, zsh or fish", { short: "-s" }),
  writeState: flag("write the script to <stateDir>/completions/ instead of printing it"),
};

/** `pincer completion`, describing the tree under `root`. */
export function completionCommands(root: Command) {
  return [
    defineCommand({
      path: ["completion"],
      description: "print a shell completion script (bash, zsh or fish) for the whole command tree",
      arguments: [
        {
          name: "shell",
          description: "bash, zsh or fish (default: --shell, else $SHELL, else zsh)",
        },
      ],
      options: completionOptions,
      run: lazyRun(() => import("./completion.js").then((m) => ({ run: m.runFor(root) }))),
    }),
  ];
}
