// The global `--profile <name>` (state dir `~/.openclaw-<name>`), as OpenClaw reads it: anywhere in
// argv, before or after the command. Because a flag after a subcommand reads like that subcommand's own
// option (e.g. `models auth add --profile team9` meant as an auth profile), the CLI checks the name and,
// when the flag comes after the command, says on stderr which state dir it selects. No subcommand
// defines its own `--profile`: auth profiles are `--profile-id`, as in OpenClaw.
import { isValidProfileName, resolveStatePaths } from "../config/paths.js";
import { CliError, displayPath, ExitCode } from "./command-context.js";

/** Global options that take a value (so their value is not mistaken for the command name). */
const GLOBAL_VALUE_OPTIONS = new Set(["--profile"]);

/** Where `--profile` appears in argv: its value, and whether it follows the command name. */
export interface ProfileFlagUse {
  value: string;
  afterCommand: boolean;
}

/** Finds the last `--profile` in argv (commander keeps the last one) and whether it follows the command. */
export function findProfileFlag(argv: readonly string[]): ProfileFlagUse | undefined {
  let commandSeen = false;
  let found: ProfileFlagUse | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") break;
    if (arg === "--profile" || arg.startsWith("--profile=")) {
      const value = arg === "--profile" ? (argv[++i] ?? "") : arg.slice("--profile=".length);
      found = { value, afterCommand: commandSeen };
      continue;
    }
    if (!arg.startsWith("-")) commandSeen = true;
    else if (!commandSeen && GLOBAL_VALUE_OPTIONS.has(arg)) i++;
  }
  return found;
}

/** Refuses a `--profile` value that is not a plain name; the message points auth profile ids to
 * `--profile-id`. */
export function checkProfileName(value: string): void {
  if (isValidProfileName(value)) return;
  const hint = value.includes(":")
    ? `; "${value}" looks like an auth profile id: use --profile-id (e.g. pincer models auth add --provider openai --profile-id ${value})`
    : "";
  throw new CliError(
    `--profile "${value}" is not a valid state-dir profile name (letters, digits, . _ -; it selects ~/.openclaw-<name>)${hint}`,
    ExitCode.usage,
  );
}

/** Refuses an `OPENCLAW_PROFILE` that is not a plain name (when no `--profile` overrides it). */
export function checkProfileEnv(env: Record<string, string | undefined>): void {
  const value = env.OPENCLAW_PROFILE?.trim() ?? "";
  if (value === "" || isValidProfileName(value)) return;
  throw new CliError(
    `OPENCLAW_PROFILE "${value}" is not a valid state-dir profile name (letters, digits, . _ -; it selects ~/.openclaw-<name>): fix or unset it`,
    ExitCode.usage,
  );
}

/** The stderr note for a `--profile` given after the command: which state dir it selects, and that it
 * is the global flag (so nobody mistakes it for a subcommand option). */
export function profileNotice(params: {
  profile: string;
  env: Record<string, string | undefined>;
}): string {
  const paths = resolveStatePaths({ env: params.env, profile: params.profile });
  const where = displayPath(paths.stateDir, paths.home);
  const pinned = params.env.OPENCLAW_STATE_DIR?.trim()
    ? " (OPENCLAW_STATE_DIR is set and wins over --profile)"
    : "";
  return `note: --profile ${params.profile} is the global state-dir profile: using state dir ${where}${pinned}; an auth profile is --profile-id\n`;
}

/** The part of a commander command this check reads (kept structural so tests can build trees). */
export interface OptionTree {
  name(): string;
  options: readonly { long?: string; short?: string }[];
  commands: readonly OptionTree[];
}

/** Subcommand options that reuse a flag of the root command (`models auth add --profile`): commander
 * gives such a flag to the root, so the subcommand never sees it. Listed as `path flag`. */
export function findShadowedGlobalOptions(root: OptionTree): string[] {
  const globals = new Set(
    root.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => Boolean(f)),
  );
  const shadowed: string[] = [];
  const walk = (command: OptionTree, path: string) => {
    for (const option of command.options) {
      for (const flag of [option.long, option.short]) {
        if (flag && globals.has(flag)) shadowed.push(`${path} ${flag}`);
      }
    }
    for (const child of command.commands) walk(child, `${path} ${child.name()}`);
  };
  for (const child of root.commands) walk(child, child.name());
  return shadowed;
}
