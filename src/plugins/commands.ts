// Plugin chat commands as chat-command definitions: `/name` answered by the plugin's handler without
// the model. A name (or alias) of a built-in command is refused (noted on the plugin's record);
// without `acceptsArgs`, `/name something` is not this command and goes to the model.
import type { CommandDefinition } from "../channels/commands/types.js";
import type { Logger } from "../lib/logger.js";
import type { PluginRegistry } from "./types.js";

/** The plugin commands that do not clash with `builtin` (their names and aliases, lowercase). */
export function pluginCommandDefinitions(params: {
  registry: PluginRegistry;
  builtin: readonly CommandDefinition[];
  logger: Logger;
}): CommandDefinition[] {
  const reserved = new Set(
    params.builtin.flatMap((def) => [def.name, ...def.aliases].map((name) => name.toLowerCase())),
  );
  const out: CommandDefinition[] = [];
  for (const { pluginId, command } of params.registry.commands) {
    if (reserved.has(command.name)) {
      const note = `registerCommand: /${command.name} is a built-in command; refused`;
      const record = params.registry.plugins.find((plugin) => plugin.id === pluginId);
      if (record && !record.diagnostics.includes(note)) {
        record.diagnostics.push(note);
        record.commands = record.commands.filter((name) => name !== command.name);
      }
      params.logger.warn({ plugin: pluginId }, note);
      continue;
    }
    out.push({
      name: command.name,
      aliases: [],
      ...(command.acceptsArgs ? { args: "[args]" } : {}),
      description: command.description || `plugin ${pluginId}`,
      changesState: command.requireAuth !== false,
      ...(command.acceptsArgs ? {} : { isDirective: (args: string) => args.trim() !== "" }),
      run: async (request, host) => {
        const { config } = await host.runtimeDeps();
        const reply = await command.handler({
          senderId: request.senderId,
          channel: request.channel,
          ...(command.acceptsArgs ? { args: request.args } : {}),
          commandBody: `/${request.typed}${request.args ? ` ${request.args}` : ""}`,
          sessionKey: request.sessionKey,
          agentId: request.agentId,
          config: config.config,
        });
        return { text: typeof reply?.text === "string" ? reply.text : "" };
      },
    });
  }
  return out;
}
