// The `pincer` command tree. Only commander is loaded up front; each action imports its
// command module on demand so `pincer --help` does no work it does not need.
import { readFileSync } from "node:fs";
import { InvalidProfileNameError } from "../config/paths.js";
import { type CliContext, CliError, type CliIo, ExitCode } from "./command-context.js";
import { commandTree } from "./command-tree.js";
import { Command, CommanderError } from "./commander.js";
import {
  checkProfileEnv,
  checkProfileName,
  findProfileFlag,
  findShadowedGlobalOptions,
  profileNotice,
} from "./global-profile.js";
import { checkSubcommandTypo, describeOption, rewriteHelpArgv } from "./help-command.js";
import { type RegisterParams, registerCommands } from "./register.js";

function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}

/** Global flags that may stand before the command word and leave the root's help alone. */
const QUIET_GLOBAL_FLAGS = new Set(["--no-color", "--color"]);

/** The first word of `argv` that names a command, skipping global flags; undefined when a flag
 *  that shows the root (help, version, an unknown one) comes first or there is no word. */
function firstCommandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--profile") i++;
    else if (arg.startsWith("--profile=") || QUIET_GLOBAL_FLAGS.has(arg)) continue;
    else if (arg.startsWith("-")) return undefined;
    else return arg;
  }
  return undefined;
}

/**
 * The part of the tree `argv` needs: only the commands and groups under its first word when that
 * word names some (start-up: `pincer gateway` registers its family, not every command's options);
 * the whole tree for the root's help, `help`, `completion` (it walks the tree) and unknown words
 * (their did-you-mean suggestions).
 */
function treeFor(argv: readonly string[], root: Command): ReturnType<typeof commandTree> {
  const tree = commandTree(root);
  const word = firstCommandWord(argv);
  if (word === undefined || word === "help" || word === "completion") return tree;
  const commands = tree.commands.filter((command) => command.path[0] === word);
  if (commands.length === 0) return tree;
  return { groups: tree.groups.filter((group) => group.path[0] === word), commands };
}

/** Parses argv and runs the chosen command; resolves to the process exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = new Command("pincer");
  const contextOf = (): CliContext => {
    const opts = program.opts<{ profile?: string; color: boolean }>();
    const color = opts.color && io.isTty && !io.env.NO_COLOR;
    if (opts.profile !== undefined) {
      checkProfileName(opts.profile);
      if (findProfileFlag(argv)?.afterCommand)
        io.stderr(profileNotice({ profile: opts.profile, env: io.env }));
    } else checkProfileEnv(io.env);
    return { ...io, ...(opts.profile ? { profile: opts.profile } : {}), color };
  };
  // Where commands run: the context of a call and where its exit code goes.
  const family: Omit<RegisterParams, "groups" | "commands"> = {
    root: program,
    contextOf,
    setExitCode: (code) => {
      exitCode = code;
    },
    call: { argv, io },
  };

  program
    .description("Pincer: a self-hosted AI agent gateway, compatible with OpenClaw")
    .version(packageVersion(), "-V, --version")
    .option("--profile <name>", "use the state dir ~/.openclaw-<name> (env OPENCLAW_PROFILE)")
    .option("--no-color", "disable coloured output")
    .showHelpAfterError("(run with --help for usage)")
    .configureHelp({ optionDescription: describeOption })
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  registerCommands({ ...family, ...treeFor(argv, program) });
  // A subcommand option named like a global flag would never reach the subcommand: a bug.
  const shadowed = findShadowedGlobalOptions(program);
  if (shadowed.length > 0)
    throw new Error(`options shadowed by global flags: ${shadowed.join(", ")}`);

  try {
    checkSubcommandTypo(argv, program);
    await program.parseAsync(rewriteHelpArgv(argv, program), { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      const benign = ["commander.helpDisplayed", "commander.version", "commander.help"];
      // `help` (exit 0) vs a group run without a subcommand (help on stderr, commander's exit 1).
      if (benign.includes(err.code)) return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
      return ExitCode.usage;
    }
    if (err instanceof CliError) {
      io.stderr(`error: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof InvalidProfileNameError) {
      io.stderr(`error: ${err.message}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
}
