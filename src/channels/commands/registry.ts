// The command registry: definitions by canonical name and alias (case-insensitive), so a new command
// plugs in as one definition and `/help` and `/commands` are generated from the same list.
import type { CommandDefinition } from "./types.js";

/** Definitions looked up by name or alias. */
export interface CommandRegistry {
  /** The definition a typed name (lowercase, no `/`) names, if any. */
  resolve(name: string): CommandDefinition | undefined;
  /** Every definition, in registration order. */
  list(): readonly CommandDefinition[];
}

/** A registry over `definitions`; a name or alias used twice is a bug (throws). */
export function createCommandRegistry(definitions: readonly CommandDefinition[]): CommandRegistry {
  const byName = new Map<string, CommandDefinition>();
  for (const definition of definitions) {
    for (const key of [definition.name, ...definition.aliases]) {
      const name = key.toLowerCase();
      if (byName.has(name)) throw new Error(`chat command name /${name} registered twice`);
      byName.set(name, definition);
    }
  }
  return {
    resolve: (name) => byName.get(name.toLowerCase()),
    list: () => definitions,
  };
}

/** One help line: `/name args — description (aliases)`. */
export function commandHelpLine(definition: CommandDefinition): string {
  const args = definition.args ? ` ${definition.args}` : "";
  const aliases = definition.aliases.length
    ? ` (also ${definition.aliases.map((alias) => `/${alias}`).join(", ")})`
    : "";
  return `/${definition.name}${args} — ${definition.description}${aliases}`;
}
