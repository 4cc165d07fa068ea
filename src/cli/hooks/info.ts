// `pincer hooks info NAME [--json]`: one hook in full: description, events, source and location,
// handler module, requirements, status and reason.
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import type { jsonOptions } from "./commands.js";
import { discoverForCli, findHook } from "./discovery.js";

/** Shows one hook. */
export async function run(
  ctx: CliContext,
  { args, opts }: InputOf<typeof jsonOptions>,
): Promise<number> {
  const found = discoverForCli(ctx);
  const hook = findHook(found, args[0] ?? "");
  if (opts.json) {
    printJson(ctx, { ...hook, internalEnabled: found.internalEnabled });
    return 0;
  }
  const s = style(ctx);
  const home = found.loaded.paths.home;
  const list = (items: string[]) => (items.length ? items.join(", ") : "-");
  printLine(ctx, s.bold(`${hook.emoji ? `${hook.emoji} ` : ""}${hook.name}`));
  if (hook.description) printLine(ctx, hook.description);
  printLine(ctx, `status:   ${hook.status}${hook.reason ? ` (${hook.reason})` : ""}`);
  printLine(ctx, `events:   ${list(hook.events)}`);
  printLine(ctx, `source:   ${hook.source}`);
  printLine(ctx, `location: ${displayPath(hook.location, home)}`);
  if (hook.handlerPath)
    printLine(ctx, `handler:  ${displayPath(hook.handlerPath, home)} (export ${hook.exportName})`);
  if (hook.homepage) printLine(ctx, `homepage: ${hook.homepage}`);
  const { bins, anyBins, env, config } = hook.requires;
  printLine(
    ctx,
    `requires: bins ${list(bins)}; anyBins ${list(anyBins)}; env ${list(env)}; config ${list(config)}`,
  );
  if (hook.os.length) printLine(ctx, `os:       ${list(hook.os)}`);
  if (!found.internalEnabled)
    printLine(ctx, s.yellow("internal hooks are off (hooks.internal.enabled)"));
  return 0;
}
