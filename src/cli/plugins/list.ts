// `pincer plugins list [--json]`: every plugin found or named, its status and what it registered.
import type { PluginRecord } from "../../plugins/index.js";
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import type { pluginsOptions } from "./commands.js";
import { loadPluginsForCli } from "./load.js";

/** What a plugin registered, in one short line. */
export function registrations(plugin: PluginRecord): string {
  const parts = [
    plugin.hooks.length ? `hooks: ${plugin.hooks.join(", ")}` : "",
    plugin.tools.length ? `tools: ${plugin.tools.join(", ")}` : "",
    plugin.commands.length ? `commands: ${plugin.commands.map((c) => `/${c}`).join(", ")}` : "",
    plugin.methods.length ? `methods: ${plugin.methods.join(", ")}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : "-";
}

/** Lists the plugins with status, source and registrations (errors and reasons below each). */
export async function run(
  ctx: CliContext,
  { opts }: InputOf<typeof pluginsOptions>,
): Promise<number> {
  const registry = await loadPluginsForCli(ctx);
  if (opts.json) {
    printJson(ctx, { plugins: registry.plugins });
    return 0;
  }
  const s = style(ctx);
  const loaded = registry.plugins.filter((plugin) => plugin.status === "loaded").length;
  printLine(ctx, s.bold(`Plugins (${loaded} loaded of ${registry.plugins.length})`));
  if (registry.plugins.length === 0) {
    printLine(ctx, "No plugins found (plugins.load.paths, <stateDir>/extensions).");
    return 0;
  }
  const home = ctx.env.HOME ?? "";
  const paint = { loaded: s.green, error: s.red, disabled: s.dim } as const;
  for (const plugin of registry.plugins) {
    const source = plugin.source ? displayPath(plugin.source, home) : "(not found)";
    printLine(ctx, `${plugin.id}  ${paint[plugin.status](plugin.status)}  ${source}`);
    if (plugin.status === "loaded") printLine(ctx, `  ${registrations(plugin)}`);
    if (plugin.error)
      printLine(ctx, `  ${plugin.status === "error" ? "error" : "reason"}: ${plugin.error}`);
    for (const note of plugin.diagnostics) printLine(ctx, s.yellow(`  warning: ${note}`));
  }
  return 0;
}
