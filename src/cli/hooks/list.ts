// `pincer hooks list [--eligible] [--json]`: every hook found, where it comes from, whether it would
// run (ready) or why not (disabled, blocked, shadowed, invalid), and the events it listens to.
import type { InputOf } from "../command.js";
import { type CliContext, displayPath, printJson, printLine, style } from "../command-context.js";
import type { listOptions } from "./commands.js";
import { discoverForCli } from "./discovery.js";

/** Pads every cell but the last to its column's width. */
export function formatRows(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  return rows.map((row) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col]!)))
      .join("  ")
      .trimEnd(),
  );
}

/** Lists the hooks. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof listOptions>): Promise<number> {
  const found = discoverForCli(ctx);
  const hooks = found.discovery.hooks.filter((hook) => !opts.eligible || hook.status === "ready");
  if (opts.json) {
    printJson(ctx, {
      internalEnabled: found.internalEnabled,
      hooks,
      problems: found.discovery.problems,
    });
    return 0;
  }
  const s = style(ctx);
  const ready = hooks.filter((hook) => hook.status === "ready").length;
  printLine(ctx, s.bold(`Hooks (${ready} ready of ${hooks.length})`));
  if (hooks.length > 0) {
    const home = found.loaded.paths.home;
    const rows = hooks.map((hook) => [
      `${hook.emoji ? `${hook.emoji} ` : ""}${hook.name}`,
      hook.source,
      hook.status,
      hook.events.join(",") || "-",
      hook.reason ? hook.reason.replaceAll(`${home}/`, "~/") : "-",
    ]);
    const lines = formatRows([["NAME", "SOURCE", "STATUS", "EVENTS", "REASON"], ...rows]);
    printLine(ctx, s.dim(lines[0]!));
    for (const line of lines.slice(1)) printLine(ctx, line);
  } else {
    printLine(ctx, "No hooks found.");
  }
  if (!found.internalEnabled) {
    printLine(
      ctx,
      s.yellow(
        "internal hooks are off: set hooks.internal.enabled to true (pincer hooks enable NAME does)",
      ),
    );
  }
  printLine(ctx, s.dim(`searched: ${found.searched.join(", ")}, bundled`));
  for (const problem of found.discovery.problems) {
    ctx.stderr(
      `warning: ${problem.source} hooks ${displayPath(problem.path, found.loaded.paths.home)}: ${problem.message}\n`,
    );
  }
  return 0;
}
