// Command paths typed by hand: `pincer help <command> [<subcommand>…]` (commander's built-in help
// looks one level deep and falls back to the root help, exit 2, for a typo) becomes `<command>
// <subcommand> --help`; and a misspelt subcommand of a group with a default command (`pairing lst`,
// `gateway stauts`), which commander would hand to the default as a stray argument ("too many
// arguments for 'run'"), is named with a did-you-mean. Also the help text of options.

import { closestMatch } from "../lib/edit-distance.js";
import { CliError, ExitCode } from "./command-context.js";
import { Help, type Option } from "./commander.js";

/** The part of a commander command the path walk needs (structural, so tests can build trees). */
export interface HelpTree {
  name(): string;
  aliases(): string[];
  readonly commands: readonly HelpTree[];
}

/** Global options that take a value (their value is not the command name). */
const GLOBAL_VALUE_OPTIONS = new Set(["--profile"]);

function firstWordIndex(argv: readonly string[]): number {
  let at = 0;
  while (at < argv.length && argv[at]!.startsWith("-")) {
    at += GLOBAL_VALUE_OPTIONS.has(argv[at]!) ? 2 : 1;
  }
  return at;
}

function childNamed(command: HelpTree, word: string): HelpTree | undefined {
  return command.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

function childNames(command: HelpTree): string[] {
  return command.commands.map((c) => c.name()).filter((n) => n !== "help");
}

function unknownCommand(word: string, where: string, guess: string | undefined, names: string[]) {
  return new CliError(
    `unknown command '${word}' for ${where}${guess ? ` (did you mean ${guess}?)` : ""}; commands: ${names.join(", ")}`,
    ExitCode.usage,
  );
}

/** argv with a leading `help a b` rewritten to `a b --help`; other argv unchanged. Throws a usage
 * error naming the first unknown word (with the closest command name). */
export function rewriteHelpArgv(argv: readonly string[], root: HelpTree): string[] {
  const at = firstWordIndex(argv);
  if (argv[at] !== "help") return [...argv];
  const rest = argv.slice(at + 1);
  const end = rest.findIndex((word) => word.startsWith("-"));
  const words = end === -1 ? rest : rest.slice(0, end);
  if (words.length === 0) return [...argv];
  let command = root;
  const path: string[] = [];
  for (const word of words) {
    const next = childNamed(command, word);
    if (!next) {
      const names = childNames(command);
      const where = [root.name(), ...path].join(" ");
      throw unknownCommand(word, where, closestMatch(word, names), names);
    }
    path.push(word);
    command = next;
  }
  return [...argv.slice(0, at), ...path, "--help"];
}

/** Throws a usage error when a word after a command group is not one of its subcommands but is
 * close to one (a typo, not a positional of the group's default command). Stops at the first option. */
export function checkSubcommandTypo(argv: readonly string[], root: HelpTree): void {
  let command = root;
  const path = [root.name()];
  for (const word of argv.slice(firstWordIndex(argv))) {
    if (word.startsWith("-") || word === "help" || command.commands.length === 0) return;
    const next = childNamed(command, word);
    if (!next) {
      const names = childNames(command);
      const guess = closestMatch(word, names);
      if (guess) throw unknownCommand(word, path.join(" "), guess, names);
      return;
    }
    path.push(word);
    command = next;
  }
}

const defaultHelp = new Help();

/** An option's help text, without commander's "(default: [])" for repeatable options that start
 * empty (their description says what none means). */
export function describeOption(option: Option): string {
  const emptyList = Array.isArray(option.defaultValue) && option.defaultValue.length === 0;
  if (!emptyList || option.defaultValueDescription) return defaultHelp.optionDescription(option);
  const shown = Object.assign(Object.create(option) as Option, { defaultValue: undefined });
  return defaultHelp.optionDescription(shown);
}
