// The command tree as completion scripts need it, read from commander's own registrations, so a command
// declared in any family appears in `pincer completion` without touching the generator.
import type { Command } from "commander";

/** One completable flag of a command. */
export interface CompletionOption {
  /** `--port`, `-s`: every spelling of the flag. */
  flags: string[];
  /** True when the flag takes a value (the next word is not a command). */
  takesValue: boolean;
  description: string;
}

/** One command (or the root), by its path of names from the root. */
export interface CompletionNode {
  /** Names from the root, e.g. `["gateway", "run"]`; `[]` for `pincer` itself. */
  path: string[];
  subcommands: Array<{ name: string; description: string }>;
  options: CompletionOption[];
}

const HELP_OPTION: CompletionOption = {
  flags: ["-h", "--help"],
  takesValue: false,
  description: "display help for command",
};

function isHidden(cmd: Command): boolean {
  return (cmd as unknown as { _hidden?: boolean })._hidden === true;
}

function optionsOf(cmd: Command): CompletionOption[] {
  const options = cmd.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      flags: [option.short, option.long].filter((flag): flag is string => Boolean(flag)),
      takesValue: option.required || option.optional,
      description: option.description ?? "",
    }));
  return [...options, HELP_OPTION];
}

/** Every node of `root`'s tree, depth first (the root first), aliases listed as subcommands too. */
export function completionNodes(root: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (cmd: Command, path: string[]) => {
    const children = cmd.commands.filter((child) => !isHidden(child));
    nodes.push({
      path,
      subcommands: children.flatMap((child) =>
        [child.name(), ...child.aliases()].map((name) => ({
          name,
          description: child.description(),
        })),
      ),
      options: optionsOf(cmd),
    });
    for (const child of children) {
      for (const name of [child.name(), ...child.aliases()]) visit(child, [...path, name]);
    }
  };
  visit(root, []);
  return nodes;
}
