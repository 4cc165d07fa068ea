// A CLI command as one value: its path in the tree, its arguments, its options and its `run`. The
// options are declared once, here, and both the commander registration (flags derived from the keys:
// `dryRun` → `--dry-run`) and the type `run` receives (`OptionsOf`) come from that declaration, so the
// two cannot drift. `run` is loaded lazily (`lazyRun`): `pincer --help` imports no command module.
import type { Command } from "commander";
import type { CliContext, CliIo } from "./command-context.js";

/** A boolean switch: `--json`; `negatable` also adds `--no-<name>` (then true | false | undefined),
 * hidden from help unless `negation` describes it. */
export interface FlagOption {
  readonly kind: "flag";
  readonly description: string;
  readonly short?: string;
  readonly negatable?: boolean;
  /** Help text of a visible `--no-<name>` (implies `negatable`). */
  readonly negation?: string;
  readonly hidden?: boolean;
}

/** An option with a value: `--timeout <ms>`. */
export interface ValueOption {
  readonly kind: "value";
  readonly placeholder: string;
  readonly description: string;
  readonly short?: string;
  readonly required?: boolean;
  readonly choices?: readonly string[];
  readonly default?: string;
  readonly hidden?: boolean;
}

/** A repeatable option collected into an array (default []): `--bind <channel> --bind <other>`. */
export interface ListOption {
  readonly kind: "list";
  readonly placeholder: string;
  readonly description: string;
  readonly short?: string;
}

/** One declared option. */
export type OptionSpec = FlagOption | ValueOption | ListOption;

/** A command's options, keyed by the camelCase name `run` reads. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S extends ListOption
  ? string[]
  : S extends ValueOption
    ? S extends { required: true } | { default: string }
      ? string
      : string | undefined
    : boolean | undefined;

/** The parsed options `run` receives for a declaration `O`. */
export type OptionsOf<O extends OptionSpecs> = { -readonly [K in keyof O]: ValueOf<O[K]> };

/** What a command's `run` receives: positional arguments and the parsed options. */
export interface CommandInput<O = Record<string, unknown>> {
  args: string[];
  opts: O;
}

/** The input of the `run` declared with options `O` (what a command module's `run` takes). */
export type InputOf<O extends OptionSpecs> = CommandInput<OptionsOf<O>>;

/** A command implementation; resolves to the exit code (undefined: 0). */
export type CommandRun<O extends OptionSpecs> = (
  ctx: CliContext,
  input: CommandInput<OptionsOf<O>>,
) => Promise<number | undefined>;

/** A positional argument: `<key>` when required, `[key]` when not, `...` when variadic. */
export interface ArgumentSpec {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  readonly variadic?: boolean;
}

/** The raw call a command is registered for: argv as given and the process io. */
export interface CommandCall {
  readonly argv: readonly string[];
  readonly io: CliIo;
}

/** A command: where it sits in the tree, what it takes, and what it runs. */
export interface CommandSpec<O extends OptionSpecs = OptionSpecs> {
  /** Words after `pincer`, e.g. ["sessions", "list"]. Parent groups come from `GroupSpec`s. */
  readonly path: readonly string[];
  readonly description: string;
  /** Runs when its group is called without a subcommand. */
  readonly isDefault?: boolean;
  readonly arguments?: readonly ArgumentSpec[];
  readonly options: O;
  /**
   * Extra commander wiring that depends on the call, applied once the command is registered (e.g.
   * `gateway run --json` turns commander's usage errors into JSON records). Rarely needed.
   */
  readonly configure?: (cmd: Command, call: CommandCall) => void;
  /** Method syntax on purpose: a list of commands with different options is one array type. */
  run(ctx: CliContext, input: InputOf<O>): Promise<number | undefined>;
}

/** A command group (`pincer sessions`): a path and a description, no action of its own. */
export interface GroupSpec {
  readonly path: readonly string[];
  readonly description: string;
}

/** Declares a command; the identity, there for the inference of `O` from `options`. */
export function defineCommand<const O extends OptionSpecs>(spec: CommandSpec<O>): CommandSpec<O> {
  return spec;
}

/** A `run` that imports its module on first call (keeps `pincer --help` free of command code). */
export function lazyRun<O extends OptionSpecs>(
  load: () => Promise<{ run: CommandRun<O> }>,
): CommandRun<O> {
  return async (ctx, input) => (await load()).run(ctx, input);
}

/** A boolean switch. */
export function flag<
  const E extends Omit<FlagOption, "kind" | "description"> = Record<never, never>,
>(description: string, extra?: E): FlagOption & E {
  return { kind: "flag", description, ...(extra as E) };
}

/** An option with a value; `{ required: true }` or a `default` make it a plain string. */
export function value<
  const E extends Omit<ValueOption, "kind" | "placeholder" | "description"> = Record<never, never>,
>(placeholder: string, description: string, extra?: E): ValueOption & E {
  return { kind: "value", placeholder, description, ...(extra as E) };
}

/** A repeatable option collected into a string array. */
export function list(
  placeholder: string,
  description: string,
  extra?: { short?: string },
): ListOption {
  return { kind: "list", placeholder, description, ...extra };
}

/** The long flag of an option key: `dryRun` → `--dry-run`. */
export function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}
