// Turns command and group declarations (command.ts) into the commander tree. The only place that
// speaks commander's option API: flags come from the option keys, so a declaration is the whole truth.

import {
  type ArgumentSpec,
  type CommandCall,
  type CommandSpec,
  flagName,
  type GroupSpec,
  type OptionSpec,
  type OptionSpecs,
} from "./command.js";
import type { CliContext } from "./command-context.js";
import { type Command, Option } from "./commander.js";

/** What the registrar needs from program.ts: the context of a call and where to put the exit code. */
export interface RegisterParams {
  root: Command;
  groups: readonly GroupSpec[];
  commands: readonly CommandSpec[];
  /** Builds the context of the call (global flags resolved). */
  contextOf: () => CliContext;
  /** Receives the exit code of the command that ran. */
  setExitCode: (code: number) => void;
  /** The argv and io of the call; needed only by declarations with a `configure` hook. */
  call?: CommandCall;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function flagsOf(key: string, spec: OptionSpec): string {
  const long = flagName(key);
  const named = spec.short ? `${spec.short}, ${long}` : long;
  return spec.kind === "flag" ? named : `${named} ${spec.placeholder}`;
}

function addOption(cmd: Command, key: string, spec: OptionSpec): void {
  const option = new Option(flagsOf(key, spec), spec.description);
  switch (spec.kind) {
    case "flag":
      if (spec.hidden) option.hideHelp();
      cmd.addOption(option);
      if (spec.negation !== undefined)
        cmd.addOption(new Option(`--no-${flagName(key).slice(2)}`, spec.negation));
      else if (spec.negatable)
        cmd.addOption(new Option(`--no-${flagName(key).slice(2)}`).hideHelp());
      return;
    case "value":
      if (spec.required) option.makeOptionMandatory();
      if (spec.choices) option.choices(spec.choices);
      if (spec.default !== undefined) option.default(spec.default);
      if (spec.hidden) option.hideHelp();
      cmd.addOption(option);
      return;
    case "list":
      option.argParser(collect).default([]);
      cmd.addOption(option);
      return;
  }
}

function argumentText(arg: ArgumentSpec): string {
  const name = arg.variadic ? `${arg.name}...` : arg.name;
  return arg.required ? `<${name}>` : `[${name}]`;
}

function findChild(parent: Command, name: string): Command | undefined {
  return parent.commands.find((c) => c.name() === name);
}

function parentOf(root: Command, path: readonly string[]): Command {
  let at = root;
  for (const word of path.slice(0, -1)) {
    const next = findChild(at, word);
    if (!next) throw new Error(`command group "${path.join(" ")}" is not declared`);
    at = next;
  }
  return at;
}

/** Adds one declared command under `parent`; returns the commander command (for extra wiring). */
export function registerCommand<O extends OptionSpecs>(
  params: Omit<RegisterParams, "groups" | "commands" | "root"> & { parent: Command },
  spec: CommandSpec<O>,
): Command {
  const name = spec.path.at(-1)!;
  const cmd = params.parent
    .command(name, spec.isDefault ? { isDefault: true } : {})
    .description(spec.description);
  for (const arg of spec.arguments ?? []) cmd.argument(argumentText(arg), arg.description);
  for (const [key, option] of Object.entries(spec.options)) addOption(cmd, key, option);
  cmd.action(async (...received: unknown[]) => {
    // commander calls actions with (...positionals, options, command); variadics arrive as arrays.
    const args = (received.slice(0, -2) as Array<string | string[] | undefined>).flatMap((a) =>
      a === undefined ? [] : a,
    );
    const opts = received.at(-2) as Parameters<typeof spec.run>[1]["opts"];
    params.setExitCode((await spec.run(params.contextOf(), { args, opts })) ?? 0);
  });
  if (spec.configure) {
    if (!params.call) throw new Error(`"${spec.path.join(" ")}" needs the call to register`);
    spec.configure(cmd, params.call);
  }
  return cmd;
}

/** Registers every command under `root` in declaration order; a group is added where its first
 * command is (so help lists groups and commands in the order they are declared), and a group
 * without commands after them all. */
export function registerCommands(params: RegisterParams): Map<string, Command> {
  const byPath = new Map<string, Command>();
  const groups = new Map(params.groups.map((g) => [g.path.join(" "), g]));
  const ensureGroup = (path: readonly string[], of: readonly string[]): void => {
    for (let depth = 1; depth <= path.length; depth++) {
      const key = path.slice(0, depth).join(" ");
      if (byPath.has(key)) continue;
      const parent = parentOf(params.root, path.slice(0, depth));
      const group = groups.get(key);
      // A group another call registered is reused as it is.
      const existing = findChild(parent, path[depth - 1]!);
      if (!group && !existing) throw new Error(`command group "${of.join(" ")}" is not declared`);
      const cmd = existing ?? parent.command(group!.path.at(-1)!).description(group!.description);
      byPath.set(key, cmd);
    }
  };
  for (const spec of params.commands) {
    ensureGroup(spec.path.slice(0, -1), spec.path);
    const cmd = registerCommand({ ...params, parent: parentOf(params.root, spec.path) }, spec);
    byPath.set(spec.path.join(" "), cmd);
  }
  for (const group of params.groups) ensureGroup(group.path, group.path);
  return byPath;
}
