// `pincer plugins info ID [--json]`: one plugin's record in full.
import type { InputOf } from "../command.js";
import { type CliContext, CliError, printJson, printLine } from "../command-context.js";
import type { pluginsOptions } from "./commands.js";
import { registrations } from "./list.js";
import { loadPluginsForCli } from "./load.js";

/** Prints one plugin; an unknown id is an error naming the ids there are. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof pluginsOptions>,
): Promise<number> {
  const id = args[0] ?? "";
  const registry = await loadPluginsForCli(ctx);
  const plugin = registry.plugins.find((item) => item.id === id);
  if (!plugin) {
    const known = registry.plugins.map((item) => item.id).join(", ") || "none";
    throw new CliError(`no plugin "${id}" (plugins: ${known})`);
  }
  if (opts.json) {
    printJson(ctx, plugin);
    return 0;
  }
  const lines = [
    `id: ${plugin.id}`,
    ...(plugin.name ? [`name: ${plugin.name}`] : []),
    ...(plugin.version ? [`version: ${plugin.version}`] : []),
    ...(plugin.description ? [`description: ${plugin.description}`] : []),
    `source: ${plugin.source || "(not found)"}`,
    `status: ${plugin.status}`,
    ...(plugin.error ? [`${plugin.status === "error" ? "error" : "reason"}: ${plugin.error}`] : []),
    `registers: ${registrations(plugin)}`,
    ...plugin.diagnostics.map((note) => `warning: ${note}`),
  ];
  for (const line of lines) printLine(ctx, line);
  return 0;
}
