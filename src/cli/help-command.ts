// `pincer help <command> [<subcommand>…]`: commander's built-in help command looks one level deep and
// falls back to the root help (exit 2, no word on what was wrong) for a typo. This walks the whole
// path, turning it into `<command> <subcommand> --help`, and names an unknown word with a did-you-mean.
import { closestMatch } from "../lib/edit-distance.js";
import { CliError, ExitCode } from "./context.js";

/** The part of a commander command the help path needs (structural, so tests can build trees). */
export interface HelpTree {
  name(): string;
  aliases(): string[];
  readonly commands: readonly HelpTree[];
}

/** Global options that take a value (their value is not the command name). */
const GLOBAL_VALUE_OPTIONS = new Set(["--profile"]);

/** argv with a leading `help a b` rewritten to `a b --help`; other argv unchanged. Throws a usage
 * error naming the first unknown word (with the closest command name). */
export function rewriteHelpArgv(argv: readonly string[], root: HelpTree): string[] {
  let at = 0;
  while (at < argv.length && argv[at]!.startsWith("-")) {
    at += GLOBAL_VALUE_OPTIONS.has(argv[at]!) ? 2 : 1;
  }
  if (argv[at] !== "help") return [...argv];
  const rest = argv.slice(at + 1);
  const end = rest.findIndex((word) => word.startsWith("-"));
  const words = end === -1 ? rest : rest.slice(0, end);
  if (words.length === 0) return [...argv];
  let command = root;
  const path: string[] = [];
  for (const word of words) {
    const next = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) {
      const names = command.commands.map((c) => c.name()).filter((n) => n !== "help");
      const guess = closestMatch(word, names);
      const where = [root.name(), ...path].join(" ");
      throw new CliError(
        `unknown command '${word}' for ${where}${guess ? ` (did you mean ${guess}?)` : ""}; commands: ${names.join(", ")}`,
        ExitCode.usage,
      );
    }
    path.push(word);
    command = next;
  }
  return [...argv.slice(0, at), ...path, "--help"];
}
