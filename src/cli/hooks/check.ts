// `pincer hooks check [--json]`: how many hooks would run, and for each that would not, why.
import type { InputOf } from "../command.js";
import { type CliContext, printJson, printLine, style } from "../command-context.js";
import type { jsonOptions } from "./commands.js";
import { discoverForCli } from "./discovery.js";

/** Prints the eligibility summary. */
export async function run(ctx: CliContext, { opts }: InputOf<typeof jsonOptions>): Promise<number> {
  const found = discoverForCli(ctx);
  const { hooks } = found.discovery;
  const counts: Record<string, number> = {
    ready: 0,
    disabled: 0,
    blocked: 0,
    shadowed: 0,
    invalid: 0,
  };
  for (const hook of hooks) counts[hook.status] = (counts[hook.status] ?? 0) + 1;
  const notReady = hooks.filter((hook) => hook.status !== "ready");
  if (opts.json) {
    printJson(ctx, {
      internalEnabled: found.internalEnabled,
      total: hooks.length,
      ...counts,
      notReady: notReady.map(({ name, source, status, reason }) => ({
        name,
        source,
        status,
        reason,
      })),
    });
    return 0;
  }
  const s = style(ctx);
  printLine(ctx, s.bold("Hooks status"));
  printLine(
    ctx,
    `internal hooks: ${found.internalEnabled ? s.green("on") : s.yellow("off (hooks.internal.enabled)")}`,
  );
  printLine(
    ctx,
    `total: ${hooks.length}; ready: ${counts.ready}; disabled: ${counts.disabled}; blocked: ${counts.blocked}; shadowed: ${counts.shadowed}; invalid: ${counts.invalid}`,
  );
  for (const hook of notReady)
    printLine(ctx, `- ${hook.name} (${hook.source}) ${hook.status}: ${hook.reason ?? ""}`);
  return 0;
}
